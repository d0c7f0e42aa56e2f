import Architecture
import Synchronization
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a recorder's lines go: a file, memory, or anything that accepts whole lines.
///
/// A sink receives complete lines only, each batch in a single `write`, so a reader never sees
/// half a record unless the process dies in the middle of that one call.
///
/// ```swift
/// let lines = TraceBuffer()
/// let recorder = TraceRecorder(sink: .memory(lines))
/// ```
public struct TraceSink: Sendable {
  let write: @Sendable (_ bytes: [UInt8]) throws -> Void
  let flush: @Sendable () throws -> Void
  let close: @Sendable () throws -> Void
  /// Starts a new segment that appears holding `header`; `false` when this sink cannot
  /// (a FIFO); `nil` for sinks that never can, which then ignore size limits.
  let rotate: (@Sendable (_ header: [UInt8]) throws -> Bool)?
  /// The file's path, for a file sink: where a crash handler appends when all else failed.
  var path: String?

  /// Creates a sink from closures; `write` receives one or more complete lines.
  public init(
    write: @escaping @Sendable (_ bytes: [UInt8]) throws -> Void,
    flush: @escaping @Sendable () throws -> Void = {},
    close: @escaping @Sendable () throws -> Void = {}
  ) {
    self.write = write
    self.flush = flush
    self.close = close
    self.rotate = nil
  }

  private init(
    write: @escaping @Sendable ([UInt8]) throws -> Void,
    flush: @escaping @Sendable () throws -> Void,
    close: @escaping @Sendable () throws -> Void,
    rotate: @escaping @Sendable ([UInt8]) throws -> Bool
  ) {
    self.write = write
    self.flush = flush
    self.close = close
    self.rotate = rotate
  }

  /// A sink that keeps the lines in `buffer`, for tests.
  public static func memory(_ buffer: TraceBuffer) -> Self {
    Self(write: { buffer.append($0) })
  }

  /// A sink that writes to a new file at `path`, readable and writable by its owner only.
  ///
  /// The file is written under a temporary name in the same directory and renamed to `path`
  /// once it holds its header, replacing what was there: a trace at `path` is never empty.
  /// When the recorder starts a new segment, the file becomes `<path>.1` (older ones move up to
  /// `<path>.<keep>`, and the oldest is removed), and the new one replaces it at `path`, also
  /// holding its header already. A FIFO or a device at `path` is written as it is.
  public static func file(atPath path: String, keep: Int = 0) throws -> Self {
    try file(atPath: path, keep: keep, writeCall: TraceFile.systemWrite)
  }

  /// A file sink whose writes go through `writeCall`, which tests make fail.
  static func file(atPath path: String, keep: Int, writeCall: @escaping WriteCall) throws -> Self {
    let file = try RotatingTraceFile(path: path, keep: keep, writeCall: writeCall)
    var sink = Self(
      write: { try file.write($0) },
      flush: { try file.synchronize() },
      close: { try file.close() },
      rotate: { try file.rotate(header: $0) }
    )
    sink.path = path
    return sink
  }
}

/// Lines a ``TraceSink/memory(_:)`` sink received.
public final class TraceBuffer: Sendable {
  private let bytes = Mutex<[UInt8]>([])

  /// Creates an empty buffer.
  public init() {}

  func append(_ newBytes: [UInt8]) {
    bytes.withLock { $0.append(contentsOf: newBytes) }
  }

  /// Everything written so far.
  public var data: [UInt8] { bytes.withLock { $0 } }

  /// Everything written so far, as lines without their terminators.
  public var lines: [String] {
    String(decoding: data, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
      .map(String.init)
  }
}
