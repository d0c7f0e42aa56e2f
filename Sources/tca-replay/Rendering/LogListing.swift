import Recorder
import TraceJSON

/// What `log` prints for each record of a trace read in order, with its filters: shared by
/// `log`'s checked read and `log --follow`, so both print the same lines for the same steps.
///
/// ```swift
/// var listing = LogListing(pattern: nil, origin: nil, changed: nil, json: false, style: style)
/// if let line = listing.line(for: record, stateAfter: reader.state) { … }
/// ```
struct LogListing {
  let pattern: LabelPattern?
  let origin: String?
  let changed: StatePath?
  let json: Bool
  let style: Style
  /// The value at `changed` before the record being listed.
  private var before: JSONValue?
  /// The types the trace has declared so far, for values in Swift form.
  private var schema = TypeSchema()
  private var stateType = ""

  init(pattern: LabelPattern?, origin: String?, changed: StatePath?, json: Bool, style: Style) {
    self.pattern = pattern
    self.origin = origin
    self.changed = changed
    self.json = json
    self.style = style
  }

  /// The line `log` prints for `record`, or `nil` for none; `state` is the state after it.
  /// Every record must be passed, listed or not: `--changed` compares each step with the last.
  mutating func line(for record: TraceRecord, stateAfter state: JSONValue) -> String? {
    switch record {
    case .gap(let gap):
      if let changed { before = changed.resolve(in: state) }
      guard pattern == nil, origin == nil else { return nil }
      return json ? Self.gapJSONLine(gap) : gapLine(gap)
    case .crash(let crash):
      // The step that never finished, unless a filter leaves it out.
      guard pattern?.matches(crash.label ?? "") ?? true, origin == nil, changed == nil else {
        return nil
      }
      return json ? Self.jsonLine(crash) : crashLine(crash, style: style)
    case .header(let header):
      // A later segment's header repeats what the first declared.
      if stateType.isEmpty { stateType = header.stateType }
      schema.merge(header.types)
      if let changed { before = changed.resolve(in: state) }
      return nil
    case .step(let step):
      schema.merge(step.types)
      var change: [String] = []
      if let changed {
        let after = changed.resolve(in: state)
        defer { before = after }
        // A hidden value that changed in place reads the same before and after: only the
        // step's patch says that it changed.
        let redacted = ChangeLines.redactedChanges(in: step.patch, under: changed, in: state)
        guard after != before || !redacted.isEmpty else { return nil }
        if !json {
          change = ChangeLines(path: changed, style: style, schema: schema, stateType: stateType)
            .lines(before: before, after: after, redacted: redacted)
        }
      }
      guard pattern?.matches(step.label) ?? true else { return nil }
      if let origin, origin != (step.origin == .send ? "send" : "effect") { return nil }
      // The step's record, with the whole action, less the state change and type facts: the
      // same bytes as the scan's listing.
      if json { return step.listingJSON }
      return ([stepLine(step, style: style)] + change).joined(separator: "\n")
    default:
      if let changed { before = changed.resolve(in: state) }
      return nil
    }
  }

  /// Writes `lines` as `log` does: made safe for a terminal, as JSON when `--json`.
  func write(_ lines: [String], to output: StandardStream) {
    guard !lines.isEmpty else { return }
    let text = lines.joined(separator: "\n") + "\n"
    if json { output.writeJSON(text) } else { output.write(text) }
  }

  /// The line that stands for steps the recorder lost.
  private func gapLine(_ gap: TraceGap) -> String {
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
}
