import Recorder
import TraceJSON

/// One Server-Sent Event of the served viewer's stream: a kind, an id and one line of JSON.
///
/// ```
/// event: step
/// id: 41
/// data: {"index":41,"time":0.012,"origin":"send","label":".saved","action":…,"patch":[…]}
/// ```
///
/// A step's id is its index; any other event's id is `<the last step's index>.<n>`, its place
/// after that step (`-1.1` before the first step), so that `Last-Event-ID` names a place in the
/// stream whatever kind of event was last seen. Kinds: `header` (the trace's names and initial
/// state, first), `step` (as ``ViewerDocument`` writes a step), `effect` (an effect's end, or a
/// version-1 start), `crash` (the record as written), `end`, and `broken` (a line the reader
/// refused; nothing follows it).
struct LiveEvent {
  var kind: String
  var id: String
  var data: JSONValue

  /// The event as the stream carries it. JSON text holds no line break, so `data` is one line.
  var bytes: [UInt8] {
    Array("event: \(kind)\nid: \(id)\ndata: \(data.jsonString)\n\n".utf8)
  }

  /// Turns a followed trace's records into events, numbering them.
  struct Builder {
    /// The trace's file name, as the page shows it.
    var file: String
    private var lastStep = -1
    private var lastTime = 0.0
    private var sinceStep = 0
    private var sawHeader = false

    init(file: String) {
      self.file = file
    }

    private mutating func next(_ kind: String, _ data: JSONValue) -> LiveEvent {
      sinceStep += 1
      return LiveEvent(kind: kind, id: "\(lastStep).\(sinceStep)", data: data)
    }

    private mutating func step(_ index: Int, _ data: JSONValue) -> LiveEvent {
      lastStep = index
      sinceStep = 0
      return LiveEvent(kind: "step", id: "\(index)", data: data)
    }

    /// The events a record makes: none for keyframes, later segments' headers and kinds the
    /// page does not show.
    mutating func events(for record: TraceRecord) -> [LiveEvent] {
      switch record {
      case .header(let header):
        guard !sawHeader else { return [] }
        sawHeader = true
        lastStep = header.firstStep - 1
        return [next("header", headerJSON(header))]
      case .step(let step):
        lastTime = step.time
        return [self.step(step.index, ViewerDocument.stepJSON(step))]
      case .effect(let event):
        return [
          next(
            "effect",
            [
              "effect": .integer(Int64(event.effect)), "step": .integer(Int64(event.step)),
              "time": .double(event.time), "event": .string(event.event.rawValue),
            ])
        ]
      case .end(let end):
        return [next("end", ["steps": .integer(Int64(end.steps)), "time": .double(end.time)])]
      case .gap(let gap):
        return [lost(gap.steps, reason: gap.reason, state: gap.state)]
      case .crash:
        return [next("crash", record.json)]
      case .keyframe:
        return []
      }
    }

    /// A stand-in step for steps the page cannot have: numbered as the last of them, it
    /// replaces the whole state with the one after them, as a gap record's reader does.
    mutating func lost(_ range: ClosedRange<Int>, reason: String, state: JSONValue) -> LiveEvent {
      var object = JSONObject()
      object["index"] = .integer(Int64(range.upperBound))
      object["time"] = .double(lastTime)
      object["origin"] = "send"
      object["label"] = .string(
        "(steps \(range.lowerBound)…\(range.upperBound) not read: \(reason))")
      object["action"] = .null
      object["patch"] = [["op": "replace", "path": "", "value": state]]
      object["lost"] = true
      return step(range.upperBound, .object(object))
    }

    /// The last event of a feed whose trace broke: what the reader said.
    mutating func failure(_ message: String) -> LiveEvent {
      next("broken", ["message": .string(message)])
    }

    private func headerJSON(_ header: TraceHeader) -> JSONValue {
      var trace = JSONObject()
      trace["file"] = .string(file)
      trace["reducer"] = .string(header.reducer)
      trace["stateType"] = .string(header.stateType)
      trace["actionType"] = .string(header.actionType)
      trace["started"] = .string(header.started)
      trace["version"] = .integer(Int64(header.version))
      trace["firstStep"] = .integer(Int64(header.firstStep))
      trace["closed"] = false
      trace["metadata"] = .object(
        JSONObject(
          header.metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
      // The types, so that the page shows values in Swift form; steps add theirs.
      return [
        "trace": .object(trace), "initialState": header.initialState,
        "types": header.types ?? .object(JSONObject()),
      ]
    }
  }
}
