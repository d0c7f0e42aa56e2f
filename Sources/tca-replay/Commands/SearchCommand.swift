import Recorder
import TraceJSON

/// `tca-replay search`: the steps where a value or text appears, changes and disappears.
enum SearchCommand: Command {
  static let name = "search"
  static let abstract = "Where a value or text appears, changes and disappears in the state."
  static let overview = """
    Search the state through the whole session. A value matches when it is a string
    containing <text>, ignoring case, or a number, boolean or null written exactly as <text>.
    Each line is one event: the value appears, changes (and still matches) or disappears.
    Elements with an "id" are named by id, so a moved element is not reported as a change.
    """
  static let positionals = [
    Positional.trace, Positional(name: "<text>", help: "What to look for, e.g. milk, 42 or true."),
  ]
  static let json = Flag(
    "--json",
    help: "Print one JSON object per event (JSON Lines): step (null for the initial state), "
      + "event, path, value, and from for a change.")
  static let options: [any CommandOption] = [json]
  static let discussion = """
    EXAMPLE:
      tca-replay search Traces/todos.ndjson milk
    """

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let json = arguments[Self.json]
    let reader = try CheckedTraceReader(path: arguments.positionals[0])
    let header = try reader.readHeader()
    var search = StateSearch(query: arguments.positionals[1], type: header.stateType)
    search.schema.merge(header.types)
    var previous: JSONValue?
    var lines: [String] = []
    var count = 0
    func report(_ events: [StateSearch.Event], step: Int?) {
      for event in events {
        count += 1
        lines.append(
          json ? jsonLine(event, step: step) : textLine(event, step: step, search, context))
      }
      if lines.count >= 512 { flush(&lines, json: json, context) }
    }
    previous = reader.state
    report(search.start(with: reader.state), step: nil)
    while let record = try reader.next() {
      guard case .step(let step) = record else {
        if previous == nil {
          previous = reader.state
          report(search.start(with: reader.state), step: nil)
        }
        continue
      }
      search.schema.merge(step.types)
      let state = reader.state
      let events = search.advance(from: previous ?? .null, to: state, touching: step.patch)
      report(events, step: step.index)
      previous = state
    }
    flush(&lines, json: json, context)
    if let warning = reader.warning { context.errors.write(warning + "\n") }
    if count == 0 && !json {
      context.errors.write("No value in the state matches '\(search.query)'.\n")
    }
    return .success
  }

  private static func flush(_ lines: inout [String], json: Bool, _ context: CommandContext) {
    guard !lines.isEmpty else { return }
    let text = lines.joined(separator: "\n") + "\n"
    if json { context.output.writeJSON(text) } else { context.output.write(text) }
    lines.removeAll(keepingCapacity: true)
  }

  private static func textLine(
    _ event: StateSearch.Event, step: Int?, _ search: StateSearch, _ context: CommandContext
  ) -> String {
    let type = search.type.flatMap { search.schema.valueType(at: event.path, in: $0) }
    let show = { (value: JSONValue) in
      SwiftValue(value, type: type, schema: search.schema)
        .inline(style: context.style, limit: 60)
    }
    let at = pad(step.map { "step \($0)" } ?? "initial", toWidth: 10)
    switch event {
    case .appears(let path, let value):
      return at + context.style.paint("appears     ", .green)
        + "\(path.description.escapingControlCharacters)  \(show(value))"
    case .changes(let path, let old, let new) where old == new:
      // A hidden value changed in place: only that it changed is known.
      return at + context.style.paint("changes     ", .yellow)
        + "\(path.description.escapingControlCharacters)  changed, value redacted"
    case .changes(let path, let old, let new):
      return at + context.style.paint("changes     ", .yellow)
        + "\(path.description.escapingControlCharacters)  \(show(old)) → \(show(new))"
    case .disappears(let path, let value):
      return at + context.style.paint("disappears  ", .red)
        + "\(path.description.escapingControlCharacters)  \(show(value))"
    }
  }

  private static func jsonLine(_ event: StateSearch.Event, step: Int?) -> String {
    var object = JSONObject()
    object["step"] = step.map { .integer(Int64($0)) } ?? .null
    switch event {
    case .appears(let path, let value):
      object["event"] = .string("appears")
      object["path"] = .string(path.description)
      object["value"] = value
    case .changes(let path, let old, let new):
      object["event"] = .string("changes")
      object["path"] = .string(path.description)
      object["from"] = old
      object["value"] = new
    case .disappears(let path, let value):
      object["event"] = .string("disappears")
      object["path"] = .string(path.description)
      object["value"] = value
    }
    return JSONValue.object(object).jsonString
  }
}
