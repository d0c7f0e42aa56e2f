import Recorder
import TraceJSON

/// A trace as Trace Event Format JSON, the format `chrome://tracing` and Perfetto open.
///
/// The mapping (Documentation/ChromeTrace.md):
/// - each step is a complete slice (`"ph": "X"`) on the "reducer" thread, named by its label;
///   the trace records when a step was reduced, not for how long, so a slice lasts 1 µs, or up
///   to the next step when that is sooner;
/// - each effect is an async slice (`b` … `e`) with the effect's number as its id, from the end
///   of the step that returned it to its `finished` or `cancelled` record (or the trace's end
///   when it was still running);
/// - each action an effect sent is a flow (`s` → `f`) from the step whose effect sent it;
/// - a crash record is a global instant event (`"ph": "i"`).
///
/// Times are microseconds since recording started.
struct ChromeTraceExport {
  static let processID: Int64 = 1
  static let reducerThread: Int64 = 1
  static let effectsThread: Int64 = 2

  var timeline: TraceTimeline

  /// The Trace Event Format object: `{"traceEvents": [...], "displayTimeUnit": "ms", ...}`.
  var json: JSONValue {
    var events: [JSONValue] = metadata()
    var times: [Int: Double] = [:]
    var lastTime = 0.0
    // Steps, in order; their times are made monotonic for the track, as the format asks.
    for (position, step) in timeline.steps.enumerated() {
      let ts = max(microseconds(step.time), lastTime)
      lastTime = ts
      times[step.index] = ts
      let next = position + 1 < timeline.steps.count
        ? microseconds(timeline.steps[position + 1].time) : ts + 1
      let duration = min(1, max(0, next - ts))
      var args: JSONObject = ["index": .integer(Int64(step.index))]
      switch step.origin {
      case .send: args["origin"] = "send"
      case .effect(let cause):
        args["origin"] = "effect"
        args["cause"] = cause.map { .integer(Int64($0)) } ?? .null
      }
      args["action"] = step.action ?? .null
      args["changes"] = .integer(Int64(step.patch.operations.filter { $0.name != "test" }.count))
      events.append(
        event(
          name: step.label, category: "step", phase: "X", ts: ts, thread: Self.reducerThread,
          extra: ["dur": .double(duration), "args": .object(args)]))
    }
    // Flows: the step whose effect sent an action, to that action's step.
    for step in timeline.steps {
      guard case .effect(let cause?) = step.origin, let from = times[cause],
        let to = times[step.index]
      else { continue }
      let id: JSONValue = .integer(Int64(step.index))
      events.append(
        event(
          name: "cause", category: "cause", phase: "s", ts: from, thread: Self.reducerThread,
          extra: ["id": id]))
      events.append(
        event(
          name: "cause", category: "cause", phase: "f", ts: to, thread: Self.reducerThread,
          extra: ["id": id, "bp": "e"]))
    }
    // Effects: async slices, matched by id.
    let labels = Dictionary(
      timeline.steps.map { ($0.index, $0.label) }, uniquingKeysWith: { first, _ in first })
    for effect in timeline.effects {
      let start = microseconds(effect.start)
      let end = max(microseconds(effect.end), start)
      let name = "effect \(effect.id) of " + (labels[effect.step] ?? "step \(effect.step)")
      let id: JSONValue = .string("effect-\(effect.id)")
      events.append(
        event(
          name: name, category: "effect", phase: "b", ts: start, thread: Self.effectsThread,
          extra: ["id": id, "args": ["step": .integer(Int64(effect.step))]]))
      events.append(
        event(
          name: name, category: "effect", phase: "e", ts: end, thread: Self.effectsThread,
          extra: ["id": id, "args": ["outcome": .string(effect.outcome.rawValue)]]))
    }
    if let crash = timeline.crash {
      let time = crash["time"]?.doubleValue ?? timeline.endTime
      events.append(
        event(
          name: "crash", category: "crash", phase: "i", ts: microseconds(time),
          thread: Self.reducerThread, extra: ["s": "g", "args": ["record": crash]]))
    }
    var other: JSONObject = [
      "trace": .string(timeline.path), "reducer": .string(timeline.header.reducer),
      "started": .string(timeline.header.started), "tool": .string(timeline.header.tool),
    ]
    other["steps"] = .integer(Int64(timeline.steps.count))
    return [
      "traceEvents": .array(events), "displayTimeUnit": "ms", "otherData": .object(other),
    ]
  }

  private func metadata() -> [JSONValue] {
    let process = "\(timeline.header.reducer) (\(timeline.path.split(separator: "/").last ?? ""))"
    return [
      event(
        name: "process_name", category: nil, phase: "M", ts: 0, thread: Self.reducerThread,
        extra: ["args": ["name": .string(process)]]),
      event(
        name: "thread_name", category: nil, phase: "M", ts: 0, thread: Self.reducerThread,
        extra: ["args": ["name": "reducer"]]),
      event(
        name: "thread_name", category: nil, phase: "M", ts: 0, thread: Self.effectsThread,
        extra: ["args": ["name": "effects"]]),
    ]
  }

  private func event(
    name: String, category: String?, phase: String, ts: Double, thread: Int64,
    extra: JSONObject
  ) -> JSONValue {
    var object: JSONObject = ["name": .string(name)]
    if let category { object["cat"] = .string(category) }
    object["ph"] = .string(phase)
    object["ts"] = .double(ts)
    object["pid"] = .integer(Self.processID)
    object["tid"] = .integer(thread)
    for (key, value) in extra { object[key] = value }
    return .object(object)
  }

  /// Seconds to microseconds, rounded to nanoseconds so that the text stays short.
  private func microseconds(_ seconds: Double) -> Double {
    (seconds * 1_000_000 * 1_000).rounded() / 1_000
  }
}
