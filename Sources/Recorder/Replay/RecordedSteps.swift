import TraceJSON

/// A recorded step with the recorded states around it.
struct RecordedStep: @unchecked Sendable {
  let step: TraceStep
  /// The recorded state before the step.
  let before: JSONValue
  /// The recorded state after the step.
  let after: JSONValue
}

/// Reads a trace's steps in order, rebuilding the recorded state before and after each one by
/// applying the patches as it goes.
///
/// States share structure (`JSONValue` is copy-on-write), so holding on to many of them costs
/// little more than the parts each patch changed.
final class RecordedSteps {
  /// Checked as every command checks a trace, so a replay names the same first problem.
  let reader: CheckedTraceReader
  let header: TraceHeader
  /// The crash record the trace ends in, once read, with the state recorded before its step.
  private(set) var crash: PendingCrash?

  init(path: String) throws(ReplayError) {
    do throws(TraceReadError) {
      reader = try CheckedTraceReader(path: path)
      guard case let .header(header) = try reader.next() else {
        preconditionFailure("CheckedTraceReader returns a header first or throws")
      }
      self.header = header
    } catch {
      throw ReplayError(error)
    }
  }

  /// The next step, or `nil` at the end of the trace.
  func next() throws(ReplayError) -> RecordedStep? {
    do throws(TraceReadError) {
      var before = reader.state
      while let record = try reader.next() {
        guard case let .step(step) = record else {
          if case let .crash(crash) = record { self.crash = PendingCrash(crash, before: before) }
          before = reader.state
          continue
        }
        return RecordedStep(step: step, before: before, after: reader.state)
      }
      return nil
    } catch {
      throw ReplayError(error)
    }
  }
}

/// A crash record read, with the state recorded before the step it names: what a replay sends
/// that step's action from once every recorded step is replayed.
struct PendingCrash: @unchecked Sendable {
  let record: TraceCrash
  let before: JSONValue

  init(_ record: TraceCrash, before: JSONValue) {
    self.record = record
    self.before = before
  }
}
