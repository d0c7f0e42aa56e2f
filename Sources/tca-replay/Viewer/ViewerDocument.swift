import Recorder
import TraceJSON

/// What the viewer page embeds: a trace's steps, effects and initial state, as one JSON value.
///
/// The page rebuilds every state from `initialState` and the patches, as the trace's readers
/// do, so the document is about the size of the trace less its keyframes:
///
/// ```
/// { "format": 1, "trace": {"file", "reducer", "stateType", "actionType", "started",
///   "version", "firstStep", "closed", "metadata"},
///   "initialState": <json>,
///   "steps": [{"index", "time", "origin": "send"|"effect", "cause"?, "label", "action",
///              "patch", "effects"?}],
///   "effects": [{"id", "step", "start", "end", "outcome": "finished"|"cancelled"|"running"}],
///   "endTime": <seconds>, "crash"?: <the crash record as written>,
///   "types": <the trace's types, merged: see Documentation/TraceFormat.md> }
/// ```
struct ViewerDocument {
  /// The version of the document's shape, which the page checks.
  static let format = 1

  var json: JSONValue

  init(_ timeline: TraceTimeline) {
    var trace = JSONObject()
    let header = timeline.header
    trace["file"] = .string(String(timeline.path.split(separator: "/").last ?? ""))
    trace["reducer"] = .string(header.reducer)
    trace["stateType"] = .string(header.stateType)
    trace["actionType"] = .string(header.actionType)
    trace["started"] = .string(header.started)
    trace["version"] = .integer(Int64(header.version))
    trace["firstStep"] = .integer(Int64(timeline.steps.first?.index ?? header.firstStep))
    trace["closed"] = .bool(timeline.isClosed)
    trace["metadata"] = .object(
      JSONObject(header.metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))

    var object = JSONObject()
    object["format"] = .integer(Int64(Self.format))
    object["trace"] = .object(trace)
    object["initialState"] = timeline.initialState
    object["steps"] = .array(timeline.steps.map(Self.stepJSON))
    object["effects"] = .array(
      timeline.effects.map { effect in
        [
          "id": .integer(Int64(effect.id)), "step": .integer(Int64(effect.step)),
          "start": .double(effect.start), "end": .double(effect.end),
          "outcome": .string(effect.outcome.rawValue),
        ]
      })
    object["endTime"] = .double(timeline.endTime)
    // The Swift types behind the JSON, so that the page shows values as `state` does.
    var schema = TypeSchema()
    schema.merge(header.types)
    for step in timeline.steps { schema.merge(step.types) }
    object["types"] = schema.json
    if let crash = timeline.crash { object["crash"] = crash }
    json = .object(object)
  }

  /// A step as the page reads it, in the document and in the served stream.
  static func stepJSON(_ step: TraceStep) -> JSONValue {
    var object = JSONObject()
    object["index"] = .integer(Int64(step.index))
    object["time"] = .double(step.time)
    switch step.origin {
    case .send:
      object["origin"] = "send"
    case .effect(let cause):
      object["origin"] = "effect"
      object["cause"] = cause.map { .integer(Int64($0)) } ?? .null
    }
    object["label"] = .string(step.label)
    object["action"] = step.action ?? .null
    object["patch"] = step.patch.json
    if !step.effects.isEmpty {
      object["effects"] = .array(step.effects.map { .integer(Int64($0)) })
    }
    return .object(object)
  }

  /// The document as text that can sit inside a `<script>` element: JSON whose `<`, `>`, `&`
  /// and line separators are `\u` escapes, so no string in the trace can end the element,
  /// open a comment or break a line of script.
  var scriptText: String {
    Self.scriptSafe(json.jsonString)
  }

  /// `json` with the characters that mean something to an HTML parser escaped. Outside strings
  /// JSON holds none of them, so replacing them everywhere keeps the same JSON value.
  static func scriptSafe(_ json: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(json.utf8.count + 64)
    var utf8 = json.utf8.makeIterator()
    var pending: [UInt8] = []
    func escape(_ code: String) { bytes.append(contentsOf: Array("\\u\(code)".utf8)) }
    while let byte = utf8.next() {
      switch byte {
      case UInt8(ascii: "<"): escape("003c")
      case UInt8(ascii: ">"): escape("003e")
      case UInt8(ascii: "&"): escape("0026")
      case 0xE2:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        pending = [byte]
        if let second = utf8.next() { pending.append(second) }
        if pending.count == 2, pending[1] == 0x80, let third = utf8.next() {
          if third == 0xA8 || third == 0xA9 {
            escape(third == 0xA8 ? "2028" : "2029")
            continue
          }
          pending.append(third)
        }
        bytes.append(contentsOf: pending)
      default:
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
