import Recorder
import TraceJSON

/// A trace read whole, checked, as the viewer and the exports see it: the steps in order, each
/// effect as a span from the step that returned it to its end, and the crash when there is one.
///
/// ```swift
/// let timeline = try TraceTimeline(path: "Traces/todos.ndjson")
/// timeline.effects.filter { $0.outcome == .cancelled }.count
/// ```
struct TraceTimeline {
  /// How an effect's span ended.
  enum Outcome: String, Equatable {
    case finished, cancelled
    /// No `finished` or `cancelled` record: the recording stopped while it ran.
    case running
  }

  /// One effect: returned by the reducer of `step`, from `start` to `end`, in seconds.
  struct Effect: Equatable {
    var id: Int
    var step: Int
    var start: Double
    /// When it finished or was cancelled; for a running effect, the end of the trace.
    var end: Double
    var outcome: Outcome
  }

  var path: String
  var header: TraceHeader
  /// The state before the first step shown: the header's, or the state before `--steps`.
  var initialState: JSONValue
  var steps: [TraceStep] = []
  var effects: [Effect] = []
  /// The trace's `crash` record as written, when it has one.
  var crash: JSONValue?
  /// The `end` record's time, or the last time the trace holds.
  var endTime: Double = 0
  /// Whether the recorder closed the trace (an `end` record).
  var isClosed = false
  /// The torn-last-line warning, when there is one.
  var warning: String?

  /// Reads and checks the trace at `path`, keeping the steps in `window` (all when `nil`).
  ///
  /// - Throws: ``TraceReadError`` with the first line that breaks the format.
  init(path: String, window: ClosedRange<Int>? = nil) throws(TraceReadError) {
    let reader = try CheckedTraceReader(path: path)
    guard case .header(let header) = try reader.next() else {
      preconditionFailure("CheckedTraceReader returns a header first or throws")
    }
    self.path = path
    self.header = header
    initialState = header.initialState
    var open: [Int: Int] = [:]  // effect id → position in `effects`
    var stateBefore = header.initialState
    while let record = try reader.next() {
      // `if case`, not `switch`: a record kind added later (such as the `crash` record)
      // reaches the last branch instead of breaking this build.
      if case .step(let step) = record {
        endTime = max(endTime, step.time)
        if let window {
          if step.index < window.lowerBound {
            stateBefore = reader.state
            continue
          }
          if step.index > window.upperBound { continue }
          if steps.isEmpty { initialState = stateBefore }
        }
        steps.append(step)
        for id in step.effects {
          open[id] = effects.count
          effects.append(
            Effect(id: id, step: step.index, start: step.time, end: step.time, outcome: .running))
        }
      } else if case .effect(let event) = record {
        endTime = max(endTime, event.time)
        // Version 1 wrote a start record after the step; version 2 puts it in the step.
        if event.event == .started {
          if window.map({ $0.contains(event.step) }) ?? true {
            open[event.effect] = effects.count
            effects.append(
              Effect(
                id: event.effect, step: event.step, start: event.time, end: event.time,
                outcome: .running))
          }
          continue
        }
        guard let position = open.removeValue(forKey: event.effect) else { continue }
        effects[position].end = event.time
        effects[position].outcome = event.event == .finished ? .finished : .cancelled
      } else if case .end(let end) = record {
        endTime = max(endTime, end.time)
        isClosed = true
      } else if case .keyframe = record {
        continue
      } else if case .object(let object) = record.json, object["kind"] == "crash" {
        // Hook for the crash record: kept as written, for the page and the export to mark.
        crash = record.json
        if let time = object["time"]?.doubleValue { endTime = max(endTime, time) }
      }
    }
    for position in open.values { effects[position].end = endTime }
    warning = reader.warning
  }
}
