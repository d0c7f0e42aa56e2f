import Architecture
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
  /// Starts a new segment; `nil` for sinks that cannot, which then ignore size limits.
  let rotate: (@Sendable () throws -> Void)?
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
    rotate: @escaping @Sendable () throws -> Void
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
  /// An existing file at `path` is replaced. When the recorder starts a new segment, the file
  /// becomes `<path>.1` (older ones move up to `<path>.<keep>`, and the oldest is removed) and
  /// a new file is started at `path`.
  public static func file(atPath path: String, keep: Int = 0) throws -> Self {
    let file = try RotatingTraceFile(path: path, keep: keep)
    var sink = Self(
      write: { try file.write($0) },
      flush: { try file.synchronize() },
      close: { try file.close() },
      rotate: { try file.rotate() }
    )
    sink.path = path
    return sink
  }
}

/// Lines a ``TraceSink/memory(_:)`` sink received.
public final class TraceBuffer: @unchecked Sendable {
  private let lock = Lock()
  private var bytes: [UInt8] = []

  /// Creates an empty buffer.
  public init() {}

  func append(_ newBytes: [UInt8]) {
    lock.withLock { bytes.append(contentsOf: newBytes) }
  }

  /// Everything written so far.
  public var data: [UInt8] { lock.withLock { bytes } }

  /// Everything written so far, as lines without their terminators.
  public var lines: [String] {
    String(decoding: data, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
      .map(String.init)
  }
}

/// An open trace file: created with mode 0600, written with whole-buffer writes.
final class TraceFile: @unchecked Sendable {
  private let lock = Lock()
  private var descriptor: Int32
  let path: String

  init(path: String) throws {
    self.path = path
    // Remove a regular file first so its looser mode is not kept; a FIFO or a device the user
    // named is written to as it is.
    var status = stat()
    let exists = lstat(path, &status) == 0
    let isRegular = exists && (status.st_mode & S_IFMT) == S_IFREG
    if isRegular { unlink(path) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RecorderError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    // Where the file could not be removed (a directory we may not change), it is reused:
    // narrow its mode, as a new file's.
    if isRegular { _ = fchmod(descriptor, 0o600) }
    self.descriptor = descriptor
  }

  func write(_ bytes: [UInt8]) throws {
    try lock.withLock {
      guard descriptor >= 0 else { throw RecorderError.closed(path: path) }
      try bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            throw RecorderError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
          }
          offset += written
        }
      }
    }
  }

  func synchronize() throws {
    try lock.withLock {
      guard descriptor >= 0 else { return }
      // A pipe, a FIFO or a terminal cannot be synchronized (EINVAL): every byte was written.
      if fsync(descriptor) != 0, errno != EINVAL, errno != EROFS {
        throw RecorderError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
      }
    }
  }

  func close() throws {
    lock.withLock {
      guard descriptor >= 0 else { return }
      fsync(descriptor)
      _ = Glibc.close(descriptor)
      descriptor = -1
    }
  }

  deinit {
    if descriptor >= 0 { _ = Glibc.close(descriptor) }
  }
}

/// A trace file that can move aside for a new segment, keeping a number of older ones.
final class RotatingTraceFile: @unchecked Sendable {
  private let lock = Lock()
  private var file: TraceFile
  private let path: String
  private let keep: Int

  init(path: String, keep: Int) throws {
    self.path = path
    self.keep = keep
    self.file = try TraceFile(path: path)
  }

  func write(_ bytes: [UInt8]) throws { try lock.withLock { try file.write(bytes) } }
  func synchronize() throws { try lock.withLock { try file.synchronize() } }
  func close() throws { try lock.withLock { try file.close() } }

  /// Closes the current file, shifts the kept segments up by one, and starts a new file.
  func rotate() throws {
    try lock.withLock {
      try file.close()
      if keep == 0 {
        unlink(path)
      } else {
        unlink("\(path).\(keep)")
        for index in stride(from: keep - 1, through: 1, by: -1) {
          rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        rename(path, "\(path).1")
      }
      file = try TraceFile(path: path)
    }
  }
}
