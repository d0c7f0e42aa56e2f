import TraceJSON

/// A recorded step with the recorded states around it.
struct RecordedStep: Sendable {
  let step: TraceStep
  /// The recorded state before the step.
  let before: JSONValue
  /// The recorded state after the step.
  let after: JSONValue
}

/// A crash record read, with the state recorded before the step it names: what a replay sends
/// that step's action from once every recorded step is replayed.
struct PendingCrash: Sendable {
  let record: TraceCrash
  let before: JSONValue

  init(_ record: TraceCrash, before: JSONValue) {
    self.record = record
    self.before = before
  }
}
