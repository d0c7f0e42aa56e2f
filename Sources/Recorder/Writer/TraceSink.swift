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

  /// Creates a sink from closures; `write` receives one or more complete lines.
  public init(
    write: @escaping @Sendable (_ bytes: [UInt8]) throws -> Void,
    flush: @escaping @Sendable () throws -> Void = {},
    close: @escaping @Sendable () throws -> Void = {}
  ) {
    self.write = write
    self.flush = flush
    self.close = close
  }

  /// A sink that keeps the lines in `buffer`, for tests.
  public static func memory(_ buffer: TraceBuffer) -> Self {
    Self(write: { buffer.append($0) })
  }

  /// A sink that writes to a new file at `path`, readable and writable by its owner only.
  ///
  /// An existing file at `path` is replaced.
  public static func file(atPath path: String) throws -> Self {
    let file = try TraceFile(path: path)
    return Self(
      write: { try file.write($0) },
      flush: { try file.synchronize() },
      close: { try file.close() }
    )
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
    // Remove first so a pre-existing file's looser mode is not kept.
    unlink(path)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RecorderError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
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
      if fsync(descriptor) != 0 {
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
