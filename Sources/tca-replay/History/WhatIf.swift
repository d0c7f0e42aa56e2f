#if canImport(Glibc)
  import Glibc
#endif
import Recorder
import TraceJSON

/// The stepper's what-ifs: the recording with one step skipped, replaced or preceded by a new
/// action, run through today's reducer in a replay host, and compared with the recording.
///
/// The actions effects sent follow causality: skipping or replacing a step drops every step
/// its effects caused, since today's effects would send their own. Kept steps read the
/// dependency values they read when recorded; a new action reads the values the recording
/// read next, from the step it replaces or precedes on.
final class WhatIf {
  let trace: TraceIndex
  private let host: HistoryHost
  /// What each replayable step is, read once.
  private var steps: [(index: Int, cause: Int?, dependencies: [DependencyValue])]?
  /// The last history run, for `save`.
  private(set) var last: History?

  init(trace: TraceIndex, settings: HostSettings) {
    self.trace = trace
    host = HistoryHost(settings: settings)
  }

  enum Change {
    case skip(Int)
    /// Replaces a step's action; `label` is how the action was typed, or made from its JSON.
    case edit(Int, JSONValue, label: String)
    case insert(Int, JSONValue, label: String)

    var step: Int {
      switch self {
      case let .skip(step), let .edit(step, _, _), let .insert(step, _, _): step
      }
    }
  }

  /// The recording with `change` made, as a history.
  func history(_ change: Change) throws -> History {
    let steps = try replayableSteps()
    guard steps.contains(where: { $0.index == change.step }) else {
      let range = trace.stepCount == 0 ? "the trace has none" : "steps are \(trace.stepIndices.lowerBound)…\(trace.stepIndices.upperBound - 1)"
      throw UsageError(
        message: "step \(change.step) has no recorded action to change (\(range))")
    }
    // What the step's effects caused goes with it, unless the step stays.
    var dropped: Set<Int> = []
    if case .insert = change {} else {
      dropped.insert(change.step)
      for step in steps where step.cause.map(dropped.contains) == true { dropped.insert(step.index) }
    }
    var entries: [History.Entry] = []
    for (position, step) in steps.enumerated() {
      switch change {
      case let .edit(index, action, label) where step.index == index:
        // Compared with the state the replaced step recorded.
        entries.append(newEntry(action, label, at: position, in: steps, after: index))
        continue
      case let .insert(index, action, label) where step.index == index:
        entries.append(newEntry(action, label, at: position, in: steps, after: index - 1))
      default:
        break
      }
      if !dropped.contains(step.index) { entries.append(.recorded(step.index)) }
    }
    if let crash = trace.crash, let step = crash.step, crash.action != nil {
      // Sent by an effect of a dropped step: dropped with it, as any step it caused.
      var cause: Int?
      if case let .effect(recorded)? = crash.origin { cause = recorded }
      if !(cause.map(dropped.contains) ?? false) { entries.append(.recorded(step)) }
    }
    return History(
      trace: trace.path, entries: entries, comparison: .recordedState,
      stopsAtFirstDifference: false)
  }

  /// A new action at `position`, reading the dependency values the recording read from there.
  private func newEntry(
    _ action: JSONValue, _ label: String, at position: Int,
    in steps: [(index: Int, cause: Int?, dependencies: [DependencyValue])], after: Int
  ) -> History.Entry {
    var values: [DependencyValue] = []
    for step in steps[position...] where values.count < 16 { values += step.dependencies }
    return .new(
      action: action, label: label, dependencies: values,
      after: after >= trace.firstStep ? after : nil)
  }

  private func replayableSteps() throws -> [(index: Int, cause: Int?, dependencies: [DependencyValue])] {
    if let steps { return steps }
    var list: [(index: Int, cause: Int?, dependencies: [DependencyValue])] = []
    for index in trace.stepIndices where !trace.isLost(index) {
      let step = try trace.step(at: index)
      guard step.action != nil else { continue }
      var cause: Int?
      if case let .effect(recorded) = step.origin { cause = recorded }
      list.append((index, cause, step.dependencies))
    }
    steps = list
    return list
  }

  /// Runs `history` in the host, started on first use and again after a crash.
  func run(_ history: History) throws -> HostProcess.RunAnswer {
    last = history
    return try host.run(history)
  }

  /// Writes the last history run to `path` as a trace.
  func save(to path: String) throws -> HostProcess.RunAnswer {
    guard var history = last else {
      throw UsageError(message: "nothing to save: skip, edit or insert first")
    }
    if ShrinkCommand.sameFile(path, trace.path) {
      throw UsageError(message: "\(path) is the trace being stepped through: save elsewhere")
    }
    // Written beside the file and renamed over it once whole.
    let partial = path + ".partial"
    defer { unlink(partial) }
    history.output = partial
    let answer = try run(history)
    if case let .crashed(crash) = answer {
      try HistoryTrace.appendCrash(crash, of: history, to: partial, recording: trace)
    }
    guard rename(partial, path) == 0 else {
      throw UsageError(message: "\(path): cannot write (\(String(cString: strerror(errno))))")
    }
    return answer
  }
}

extension WhatIf {
  /// Who wrote what at `step`, through the host: the stepper's `blame [path]`.
  func blame(step: Int, path: String?) throws -> String {
    let filter = try path.map { text throws(UsageError) in
      guard let path = StatePath(text) else {
        throw UsageError(message: "'\(text)' is not a state path")
      }
      return path
    }
    switch try host.blame(path: trace.path, step: step) {
    case let .blame(reply):
      var text = BlameText(
        values: trace.valueText(), after: (try? trace.state(afterStep: step)) ?? .null,
        filter: filter)
      return text.lines(reply).joined(separator: "\n")
    case let .refused(_, message):
      throw UsageError(message: message)
    case let .crashed(crash):
      return "Step \(step) crashed the reducer (signal \(crash.signal)); the host's output is in "
        + crash.log
    }
  }
}

extension WhatIf {
  /// The stepper's `skip`, `edit`, `insert` and `save`: what to print.
  func perform(_ command: String, _ argument: String?, style: Style) throws -> String {
    let words = (argument ?? "").split(separator: " ", maxSplits: 1).map(String.init)
    if command == "save" {
      guard let path = words.first else { throw UsageError(message: "save needs a file") }
      let answer = try save(to: path)
      if case let .refused(_, message) = answer { throw UsageError(message: message) }
      return "Wrote the new history to \(path)."
    }
    guard let first = words.first, let step = Int(first) else {
      throw UsageError(
        message: command == "skip"
          ? "skip needs a step number" : "\(command) needs a step number and an action")
    }
    let change: Change
    switch command {
    case "skip":
      change = .skip(step)
    default:
      guard words.count == 2 else {
        throw UsageError(message: "\(command) needs an action after the step: .name(…) or JSON")
      }
      let action: JSONValue
      do throws(ActionText.ParseError) {
        action = try trace.readAction(words[1], near: step)
      } catch {
        throw UsageError(message: error.message)
      }
      let typed = words[1].trimmingWhitespace
      // Typed as a case, it is its own label; as JSON, it is shown as `state` shows values.
      let label =
        typed.hasPrefix(".")
        ? typed
        : SwiftValue(action, type: trace.header.actionType, schema: trace.typeSchema())
          .inline(limit: 100)
      change =
        command == "edit" ? .edit(step, action, label: label) : .insert(step, action, label: label)
    }
    let history = try history(change)
    switch try run(history) {
    case let .refused(_, message):
      throw UsageError(message: message)
    case let .crashed(crash):
      let entry = history.entries[crash.step]
      return style.paint(
        "The new history crashes the reducer at \(describe(entry)): "
          + (crash.reason.first ?? HostCrash.describe(signal: crash.signal)), .red)
        + "\n(host log: \(crash.log))"
    case let .outcome(outcome):
      if let undecodable = outcome.differing.first(where: { $0.reason == "actionDoesNotDecode" }) {
        last = nil  // Nothing worth saving: the history stopped there.
        let entry = history.entries[undecodable.entry]
        throw UsageError(
          message: Suggestion.message(
            "\(describe(entry)) does not decode as today's action type; write a case of it "
              + "(.name or .name(label: value)) or its JSON",
            for: Self.caseName(of: entry) ?? "", in: actionCases))
      }
      return report(outcome, of: history, style: style)
    }
  }

  /// The cases of the trace's action type the recording knows, as typed: `.ticket`.
  private var actionCases: [String] {
    let type = trace.typeSchema().description(of: trace.header.actionType)
    guard case let .enumeration(cases)? = type else { return [] }
    return cases.map { "." + $0.name }
  }

  /// The outermost case of a new action typed as a case (`.ticket` of `.ticket(id: …)`).
  private static func caseName(of entry: History.Entry) -> String? {
    guard case let .new(_, label, _, _) = entry,
      let name = label.firstMatch(of: /^\.[A-Za-z_][A-Za-z0-9_]*/)
    else { return nil }
    return String(name.output)
  }

  private func describe(_ entry: History.Entry) -> String {
    switch entry {
    case let .recorded(index):
      let label =
        trace.stepIndices.contains(index)
        ? (try? trace.step(at: index).label) ?? "" : trace.crash?.label ?? ""
      return "step \(index) \(label)".escapingControlCharacters
    case let .new(_, label, _, _):
      return "the new action \(label)".escapingControlCharacters
    }
  }

  /// Where the history parts from the recording, and how each later step differs.
  private func report(_ outcome: HistoryOutcome, of history: History, style: Style) -> String {
    let recorded = trace.stepCount
    var lines = [
      "Ran \(counted(outcome.ran, "step")) through today's reducer "
        + "(the recording has \(recorded))."
    ]
    guard let first = outcome.differing.first else {
      lines.append("It never parts from the recording: every state is as recorded.")
      return lines.joined(separator: "\n")
    }
    let count = outcome.differingCount
    lines.append(
      style.paint("It parts from the recording at \(describe(history.entries[first.entry]))", .bold)
        + "; \(count) of its steps \(verb(count, "differs", "differ")).")
    for difference in outcome.differing.prefix(5) where difference.reason == "state" {
      lines.append("  " + describe(history.entries[difference.entry]))
      for path in difference.differences.prefix(3) {
        let at = StatePath(path.path)
        lines.append(
          "      \(at.description.escapingControlCharacters)  recorded "
            + short(path.expected, at: at, style: style) + ", now "
            + short(path.actual, at: at, style: style))
      }
      if difference.count > 3 {
        let more = difference.count - 3
        lines.append("      … and \(more) more \(noun(more, "path"))")
      }
    }
    if outcome.differingCount > 5 {
      let more = outcome.differingCount - 5
      lines.append("  … and \(more) more \(noun(more, "step")).")
    }
    lines.append("'save <file>' writes the new history as a trace.")
    return lines.joined(separator: "\n")
  }

  /// A value at `path` in Swift form, by the trace's types, on one line.
  private func short(_ value: JSONValue?, at path: StatePath, style: Style) -> String {
    guard let value, value != .null else { return "nil" }
    return trace.swiftValue(value, at: path).inline(style: style, limit: 60)
  }
}
