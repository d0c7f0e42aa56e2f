import TraceJSON

/// The last record of a trace whose process died of a signal: a trap, a bad access, an abort.
///
/// Written by the recorder's crash handler as the process dies (see the README's "Recording"
/// section for what is guaranteed). When the crash happened on the thread reducing a step,
/// the record names that step, which never finished: it has no `step` record of its own.
package struct TraceCrash: Sendable, Equatable {
  /// The step being reduced when the process crashed; `nil` when the crash happened outside a
  /// recording reducer (in an effect, a view, another thread).
  package var step: Int?
  /// Seconds since recording started, when the signal arrived.
  package var time: Double
  /// The action of ``step``, encoded before the reducer ran; `nil` when it could not be
  /// encoded or no step was being reduced.
  package var action: JSONValue?
  /// The readable name of ``step``'s action.
  package var label: String?
  /// Whether ``step`` finished: always `false` as this build writes it. Present so a reader
  /// need not know that a crash record's step is unfinished.
  package var finished: Bool
  /// The signal's name, e.g. `SIGTRAP`; `nil` when unknown.
  package var signal: String?
  /// What sent ``step``'s action: the user, or the effect of an earlier step; `nil` when not
  /// recorded (a trace written before the member, or a record the handler wrote alone).
  package var origin: TraceStep.Origin?

  /// Creates a crash record.
  package init(
    step: Int?, time: Double, action: JSONValue? = nil, label: String? = nil,
    finished: Bool = false, signal: String?, origin: TraceStep.Origin? = nil
  ) {
    self.origin = origin
    self.step = step
    self.time = time
    self.action = action
    self.label = label
    self.finished = finished
    self.signal = signal
  }
}

extension TraceCrash {
  var json: JSONValue {
    var object = JSONObject()
    object["kind"] = "crash"
    if let step {
      object["step"] = .integer(Int64(step))
    }
    object["time"] = .double(time)
    if step != nil {
      object["action"] = action ?? .null
      if let label { object["label"] = .string(label) }
      object["finished"] = .bool(finished)
      switch origin {
      case .send?: object["origin"] = "send"
      case let .effect(cause)?:
        object["origin"] = "effect"
        object["cause"] = cause.map { .integer(Int64($0)) } ?? .null
      case nil: break
      }
    }
    if let signal { object["signal"] = .string(signal) }
    return .object(object)
  }
}
