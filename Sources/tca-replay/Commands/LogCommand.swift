import Recorder
import TraceJSON

/// `tca-replay log`: one line per step, optionally filtered.
enum LogCommand: Command {
  static let name = "log"
  static let abstract = "One line per step: index, time, origin and action; filterable."
  static let overview = """
    Print one line per step: its index, the time since recording started, where the
    action came from (sent, or from the effect of an earlier step) and the action. A trace
    whose app crashed ends with the step that did not finish and the signal
    ("crashed: SIGTRAP"); --origin and --changed leave that line out.
    """
  static let positionals = [Positional.trace]
  static let action = Option<LabelPattern>(
    "--action", value: "<pattern>",
    help: "Only steps whose action label matches: a substring, or, when the pattern has * or "
      + "?, a glob matching the whole label (e.g. '.todo(*checkbox*', '*dismiss*')."
  ) { text, _ in LabelPattern(text: text) }
  static let origin = Option<String>(
    "--origin", value: "<origin>",
    help: "Only steps sent from outside (send) or by effects (effect)."
  ) { text, name throws(UsageError) in
    guard text == "send" || text == "effect" else {
      throw UsageError(message: "\(name) must be 'send' or 'effect', not '\(text)'")
    }
    return text
  }
  static let changed = Option<StatePath>.statePath(
    "--changed", value: "<path>",
    help: "Only steps that changed the state at a path, each followed by the change, old → "
      + "new: a JSON Pointer (/count, /todos/0 by position), /todos[id=3]/isComplete, which "
      + "follows the element whose \"id\" is 3 through moves, or '' for the whole state (with "
      + "--follow, what _printChanges shows).")
  static let json = Flag(
    "--json",
    help: "Print one JSON object per line (JSON Lines) instead of text, with the whole action "
      + "where the trace has it.")
  static let follow = Flag(
    "-f", "--follow",
    help: "Keep reading as the app records, like tail -f: print each new step as it is "
      + "written, across rotated files; wait for a trace that does not exist yet. Ends at the "
      + "end or crash record, or on Ctrl-C.")
  static let options: [any CommandOption] = [action, origin, changed, json, follow]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let pattern = arguments[Self.action]
    let origin = arguments[Self.origin]
    let changed = arguments[Self.changed]
    let json = arguments[Self.json]

    let path = arguments.positionals[0]
    let style = context.style
    if arguments[Self.follow] {
      let listing = LogListing(
        pattern: pattern, origin: origin, changed: changed, json: json, style: style)
      return try follow(path, listing: listing, context: context)
    }
    // On every core first, each thread writing its steps' lines, made safe for a terminal as
    // `write` and `writeJSON` make them. A trace with anything to report is read again,
    // checked, from the first run not written yet.
    // With `--json`, each step's listing, made on the threads as `writeJSON` makes it.
    typealias Scan = CheckedTraceReader.Scan
    // The whole trace's types, read before the threads start: they show values in Swift form.
    let index = changed == nil ? nil : try? TraceIndex(path: path)
    // A path no state of the trace's type can have is a typo: refused as `state` refuses it,
    // rather than listed as changing at no step.
    if let changed, let index, let initial = try? index.state(afterStep: nil),
      case .impossible(let message) = index.lookUp(changed, in: initial)
    {
      throw UsageError(message: message.escapingControlCharacters)
    }
    let types: (schema: TypeSchema, stateType: String)? =
      json ? nil : index.map { ($0.typeSchema(), $0.header.stateType) }
    // A hidden value that changed in place is said only by its step's patch: with redaction
    // rules, the scan reads whole the lines that hold the placeholder.
    let hiddenChanges = !(index?.header.redactions.isEmpty ?? true)
    let options = Scan.Options(
      labels: true, changed: changed, hiddenChanges: hiddenChanges, json: json, write: {
      step, out in
      guard step.changed, pattern?.matches(step.label) ?? true else { return }
      if let origin, origin != (step.origin == .send ? "send" : "effect") { return }
      if json {
        TerminalText.appendJSON(step.writeJSON, to: &out)
      } else if !appendPlainStepLine(step, style: style, to: &out) {
        out.append(contentsOf: TerminalText.rendered(stepLine(step, style: style)).utf8)
      }
      if !json, let changed, let change = step.change {
        let lines = ChangeLines(
          path: changed, style: style, schema: types?.schema ?? TypeSchema(),
          stateType: types?.stateType ?? ""
        ).lines(before: change.before, after: change.after, redacted: change.redacted)
        out.append(0x0A)
        out.append(contentsOf: TerminalText.rendered(lines.joined(separator: "\n")).utf8)
      }
      out.append(0x0A)
    })
    let output = context.output
    let outcome = try? Scan.run(path: path, options: options) { chunk in
      if !chunk.bytes.isEmpty { output.writeRaw(chunk.bytes) }
    }
    var fromLine = 1
    switch outcome {
    case .complete?: return .success
    case .needsCheckedRead(let line)?: fromLine = line
    case nil: break
    }

    // Checked as summary checks it: a trace summary refuses is refused here too.
    let reader = try CheckedTraceReader(path: path)
    var listing = LogListing(
      pattern: pattern, origin: origin, changed: changed, json: json, style: style)
    var lines: [String] = []
    while let record = try reader.next() {
      guard let line = listing.line(for: record, stateAfter: reader.state) else { continue }
      if case .step = record, reader.line < fromLine { continue }
      lines.append(line)
      if lines.count == 512 {
        listing.write(lines, to: context.output)
        lines.removeAll(keepingCapacity: true)
      }
    }
    listing.write(lines, to: context.output)
    if let warning = reader.warning { context.errors.write(warning + "\n") }
    return .success
  }
}
