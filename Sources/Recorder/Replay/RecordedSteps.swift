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
  let reader: TraceReader
  let header: TraceHeader
  private var state: JSONValue

  init(path: String) throws(ReplayError) {
    do throws(TraceReadError) {
      reader = try TraceReader(path: path)
      guard case let .header(header) = try reader.next() else {
        throw TraceReadError(
          path: path, line: 1, kind: .malformed, message: "the first line is not a header record"
        )
      }
      self.header = header
      state = header.initialState
    } catch {
      throw ReplayError(error)
    }
  }

  /// The next step, or `nil` at the end of the trace.
  func next() throws(ReplayError) -> RecordedStep? {
    do throws(TraceReadError) {
      while let record = try reader.next() {
        guard case let .step(step) = record else { continue }
        let before = state
        do {
          try step.patch.apply(to: &state)
        } catch {
          throw TraceReadError(
            path: reader.path, line: reader.line, kind: .malformed,
            message: "the patch of step \(step.index) does not apply: \(error)"
          )
        }
        return RecordedStep(step: step, before: before, after: state)
      }
      return nil
    } catch {
      throw ReplayError(error)
    }
  }
}
