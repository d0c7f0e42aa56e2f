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
    help: "Only steps that changed the state at a path: a JSON Pointer (/count, /todos/0 by "
      + "position) or /todos[id=3]/isComplete, which follows the element whose \"id\" is 3 "
      + "through moves.")
  static let json = Flag(
    "--json",
    help: "Print one JSON object per line (JSON Lines) instead of text, with the whole action "
      + "where the trace has it.")
  static let options: [any CommandOption] = [action, origin, changed, json]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let pattern = arguments[Self.action]
    let origin = arguments[Self.origin]
    let changed = arguments[Self.changed]
    let json = arguments[Self.json]

    let path = arguments.positionals[0]
    let style = context.style
    // On every core first, each thread writing its steps' lines, made safe for a terminal as
    // `write` and `writeJSON` make them. A trace with anything to report is read again,
    // checked, from the first run not written yet.
    // With `--json`, each step's listing, made on the threads as `writeJSON` makes it.
    typealias Scan = CheckedTraceReader.Scan
    let options = Scan.Options(labels: true, changed: changed, json: json, write: {
      step, out in
      guard step.changed, pattern?.matches(step.label) ?? true else { return }
      if let origin, origin != (step.origin == .send ? "send" : "effect") { return }
      if json {
        TerminalText.appendJSON(step.writeJSON, to: &out)
      } else if !appendPlainStepLine(step, style: style, to: &out) {
        out.append(contentsOf: TerminalText.rendered(stepLine(step, style: style)).utf8)
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
    var before: JSONValue?
    var lines: [String] = []
    while let record = try reader.next() {
      if case .gap(let gap) = record, pattern == nil, origin == nil {
        lines.append(json ? gapJSONLine(gap) : gapLine(gap, style: context.style))
      }
      if case .crash(let crash) = record {
        // The step that never finished, unless a filter leaves it out.
        if pattern?.matches(crash.label ?? "") ?? true, origin == nil, changed == nil {
          lines.append(json ? jsonLine(crash) : crashLine(crash, style: context.style))
        }
        continue
      }
      guard case .step(let step) = record else {
        if let changed { before = changed.resolve(in: reader.state) }
        continue
      }
      var didChange = true
      if let changed {
        let after = changed.resolve(in: reader.state)
        didChange = after != before
        before = after
      }
      guard reader.line >= fromLine else { continue }
      guard didChange, pattern?.matches(step.label) ?? true else { continue }
      if let origin, origin != (step.origin == .send ? "send" : "effect") { continue }
      lines.append(json ? jsonLine(step) : stepLine(step, style: context.style))
      if lines.count == 512 {
        write(lines, json: json, to: context.output)
        lines.removeAll(keepingCapacity: true)
      }
    }
    if !lines.isEmpty { write(lines, json: json, to: context.output) }
    if let warning = reader.warning { context.errors.write(warning + "\n") }
    return .success
  }

  private static func write(_ lines: [String], json: Bool, to output: StandardStream) {
    let text = lines.joined(separator: "\n") + "\n"
    if json { output.writeJSON(text) } else { output.write(text) }
  }

  /// The line that stands for steps the recorder lost.
  private static func gapLine(_ gap: TraceGap, style: Style) -> String {
    style.paint(
      "steps \(gap.from)…\(gap.to) lost: \(gap.reason.escapingControlCharacters)", .bold)
  }

  private static func gapJSONLine(_ gap: TraceGap) -> String {
    JSONValue.object([
      "lost": ["from": .integer(Int64(gap.from)), "to": .integer(Int64(gap.to))],
      "reason": .string(gap.reason),
    ]).jsonString
  }

  private static func jsonLine(_ crash: TraceCrash) -> String {
    guard case .object(var object) = TraceRecord.crash(crash).json else { return "{}" }
    _ = object.removeValue(forKey: "action")
    return JSONValue.object(object).jsonString
  }

  private static func jsonLine(_ step: TraceStep) -> String {
    // The step's record, with the whole action, less the state change and type facts: the
    // same bytes as the scan's listing.
    step.listingJSON
  }
}
