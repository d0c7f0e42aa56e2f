import Recorder
import TraceJSON

/// `tca-replay blame`: which reducer, at which line, wrote each path a step changed?
enum BlameCommand: Command {
  static let name = "blame"
  static let abstract = "Which reducer, at which line, wrote each path a step changed."
  static let overview = """
    Replay one step through today's reducer in the replay host, from the state recorded
    before it, with every composition boundary instrumented (Reduce, Scope, ifLet, forEach,
    ifCaseLet, CombineReducers, BindingReducer, onChange, _printChanges, dependency and
    transformDependency, and the navigation ifLet and forEach). For every path the step changed, print the reducer that wrote it,
    innermost first, with the file and line where each was built; a path two reducers wrote
    lists both, in order. For every effect the step returned, the reducer that returned it.
    """
  static let positionals = [
    Positional.trace, Positional(name: "<step>", help: "A step number or 'last'."),
  ]
  static let path = Option<String>(
    "--path", value: "<path>",
    help: "Only the changes at or under this state path, e.g. /todos[id=3]/isComplete.")
  static let json = Flag(
    "--json", help: "Print the host's answer as JSON (Documentation/ReplayHostProtocol.md).")
  static let options: [any CommandOption] = HostSettings.options(required: true) + [path, json]
  static let discussion = """
    The host must speak protocol version 3 (a host built with this tca-replay's Recorder); an
    older one is refused in one line.

    EXIT CODES:
      0 blamed, 64 bad arguments or a step the trace does not have, 65 malformed trace,
      66 missing trace, 125 the host failed (did not start, crashed, hung, is too old, or
      sent a malformed answer).

    EXAMPLE:
      tca-replay blame Traces/todos.ndjson 3 --host .build/debug/example-replay-host
    """

  static func run(_ parsed: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let tracePath = parsed.positionals[0]
    // The trace is checked here first: a bad trace or step gets the tool's own one line.
    let trace = try context.openTrace(tracePath)
    let index: Int
    do throws(UsageError) {
      guard let resolved = try StepReference.resolve(parsed.positionals[1], in: trace) else {
        throw UsageError(message: "the initial state has no action; name a step")
      }
      index = resolved
    } catch {
      // One line naming the trace: the step is wrong, not the command's shape.
      context.errors.write("Error: \(tracePath): \(error.message.escapingControlCharacters)\n")
      return .usage
    }
    let filter = try parsed[path].map { text throws(UsageError) in
      guard let path = StatePath(text) else {
        throw UsageError(message: "'\(text)' is not a state path")
      }
      return path
    }
    let errors = context.errors
    let host: HostProcess
    let answer: HostProcess.BlameAnswer
    do throws(HostError) {
      host = try HostSettings(required: parsed).start()
      answer = try host.blame(path: tracePath, step: index)
    } catch {
      errors.write("Error: \(error)\n")
      return .cannotTest
    }
    if let late = host.finish() { context.warn("\(late)") }
    switch answer {
    case let .refused(problem, message):
      errors.write("Error: \(message)\n")
      return ExitStatus(refusal: problem)
    case let .crashed(crash):
      errors.write(
        "Error: step \(index) crashed the reducer (signal \(crash.signal)); the host's output is "
          + "in \(crash.log)\n")
      return .cannotTest
    case let .blame(reply):
      let after = (try? trace.state(afterStep: index)) ?? .null
      var text = BlameText(values: trace.valueText(), after: after, filter: filter)
      let lines = text.lines(reply)
      if parsed[json] {
        context.output.writeJSON(reply.json.jsonString + "\n")
      } else {
        context.output.write(lines.joined(separator: "\n") + "\n")
      }
      return .success
    }
  }
}

/// A blame as lines: the step, then `~ path: old → new   writer ← boundary …` per change and
/// `effect: …   writer` per effect.
struct BlameText {
  var values: StateValueText
  /// The state after the step, which names array elements by their ids.
  var after: JSONValue
  var filter: StatePath?
  var locator = WriteLocator()

  mutating func lines(_ reply: BlameReply) -> [String] {
    var lines = ["step \(reply.step)  \(reply.label.escapingControlCharacters)"]
    for change in reply.changes {
      let path = StatePath(identifying: change.path, in: after)
      if let filter, !Self.path(path, isWithin: filter), !Self.path(filter, isWithin: path) {
        continue
      }
      let mark = change.old == nil ? "+" : change.new == nil ? "-" : "~"
      let value: String
      switch (change.old, change.new) {
      case let (old?, new?):
        value = "\(values.text(old, at: change.path)) → \(values.text(new, at: change.path))"
      case let (nil, new?): value = values.text(new, at: change.path)
      case let (old?, nil): value = values.text(old, at: change.path)
      case (nil, nil): value = ""
      }
      let head = "\(mark) \(path.description.escapingControlCharacters): \(value)"
      guard !change.writers.isEmpty else {
        lines.append(head + "   (no instrumented reducer wrote it)")
        continue
      }
      for (number, text) in writers(of: change, label: reply.label).enumerated() {
        lines.append(
          (number == 0 ? head : String(repeating: " ", count: min(head.count, 40)) + " and")
            + "   " + text)
      }
    }
    if filter == nil {
      for effect in reply.effects {
        var what = counted(effect.runs, "run")
        if !effect.cancellable.isEmpty {
          what += ", cancellable by " + effect.cancellable.joined(separator: ", ")
        }
        if !effect.cancels.isEmpty { what += ", cancels " + effect.cancels.joined(separator: ", ") }
        lines.append(
          "effect: \(what.escapingControlCharacters)   "
            + effect.chain.map(\.text).joined(separator: " ← "))
      }
    }
    if reply.changes.isEmpty && reply.effects.isEmpty && filter == nil {
      lines.append("(the step changed nothing and returned no effect)")
    }
    return lines
  }

  /// Each reducer chain that wrote `change`, in the order they wrote, as
  /// `TodoFeature.swift:41 (Reduce) ← TodosFeature.swift:88 (forEach(\.todos))`.
  mutating func writers(of change: BlameReply.Change, label: String) -> [String] {
    change.writers.map { chain in
      var texts = chain.map(\.text)
      // A closure's writing line, when its source is here to read.
      if let writer = chain.first, writer.kind == "Reduce",
        let line = locator.line(
          writing: change.path.tokens, in: writer.file, at: writer.line, label: label)
      {
        let name = writer.file.split(separator: "/").last.map(String.init) ?? writer.file
        texts[0] = "\(name):\(line) (in Reduce at :\(writer.line))"
      }
      return texts.joined(separator: " ← ")
    }
  }

  /// Whether one path lies within the other.
  static func related(_ a: [String], _ b: [String]) -> Bool {
    a.count <= b.count ? b.starts(with: a) : a.starts(with: b)
  }

  private static func path(_ path: StatePath, isWithin outer: StatePath) -> Bool {
    path.description.hasPrefix(outer.description)
  }
}
