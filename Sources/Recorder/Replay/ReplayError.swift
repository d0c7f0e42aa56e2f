/// Why a replay could not run at all: the trace is missing or broken.
///
/// A reducer that disagrees with the recording is not an error: it is a ``Divergence`` in the
/// ``ReplayReport``.
public struct ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The underlying problem with the trace, naming its file and line.
  package var trace: TraceReadError

  /// Wraps a trace problem.
  package init(_ trace: TraceReadError) {
    self.trace = trace
  }

  /// `path:line: message`.
  public var description: String { trace.description }

  /// What `read` returns, its trace problem thrown as a replay error.
  static func reading<T>(
    _ read: @autoclosure () throws(TraceReadError) -> T
  ) throws(ReplayError) -> T {
    do throws(TraceReadError) {
      return try read()
    } catch {
      throw ReplayError(error)
    }
  }
}

extension CheckedTraceReader {
  /// Opens the trace at `path` and reads its header, for a replay.
  static func openForReplay(
    _ path: String
  ) throws(ReplayError) -> (reader: CheckedTraceReader, header: TraceHeader) {
    let reader = try ReplayError.reading(CheckedTraceReader(path: path))
    return (reader, try ReplayError.reading(reader.readHeader()))
  }

  /// ``nextStep()``, for a replay.
  func nextReplayStep() throws(ReplayError) -> RecordedStep? {
    try ReplayError.reading(nextStep())
  }
}
