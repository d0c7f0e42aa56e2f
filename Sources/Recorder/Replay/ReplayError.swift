/// Why a replay could not run at all: the trace is missing or broken.
///
/// A reducer that disagrees with the recording is not an error: it is a ``Divergence`` in the
/// ``ReplayReport``.
public struct ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The underlying problem with the trace, naming its file and line.
  public var trace: TraceReadError

  /// Wraps a trace problem.
  public init(_ trace: TraceReadError) {
    self.trace = trace
  }

  /// `path:line: message`.
  public var description: String { trace.description }
}
