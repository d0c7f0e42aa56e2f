/// What can go wrong while recording or reading a trace.
public enum RecorderError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A trace file could not be created.
  case cannotOpen(path: String, reason: String)
  /// Writing to a trace file failed.
  case cannotWrite(path: String, reason: String)
  /// The recorder was written to after it was closed.
  case closed(path: String)

  /// The problem in one line, starting with the trace file's path.
  public var description: String {
    switch self {
    case let .cannotOpen(path, reason): "\(path): cannot create the trace file: \(reason)"
    case let .cannotWrite(path, reason): "\(path): cannot write the trace: \(reason)"
    case let .closed(path): "\(path): the recorder is closed"
    }
  }
}
