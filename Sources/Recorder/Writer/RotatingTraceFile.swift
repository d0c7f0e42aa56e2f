import Architecture
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace file that can move aside for a new segment, keeping a number of older ones.
///
/// At every moment a file that loads is at `path`: a new segment is written, header first,
/// under a temporary name, and renamed over the old one only then.
final class RotatingTraceFile: @unchecked Sendable {
  private let lock = Lock()
  private var file: TraceFile
  private let path: String
  private let keep: Int
  private let writeCall: WriteCall

  init(path: String, keep: Int, writeCall: @escaping WriteCall = TraceFile.systemWrite) throws {
    self.path = path
    self.keep = keep
    self.writeCall = writeCall
    self.file = try TraceFile(path: path, writeCall: writeCall)
  }

  /// Writes whole lines; the first ones written (the header) put the file at `path`.
  func write(_ bytes: [UInt8]) throws {
    try lock.withLock {
      try file.write(bytes)
      try file.publish()
    }
  }

  func synchronize() throws { try lock.withLock { try file.synchronize() } }
  func close() throws { try lock.withLock { try file.close() } }

  /// Writes `header` to a new file, shifts the kept segments up by one, and puts the new file
  /// at `path`. Returns `false`, doing nothing, when the trace is not a regular file.
  func rotate(header: [UInt8]) throws -> Bool {
    try lock.withLock {
      guard file.isRegular, file.isPublished else { return false }
      let next = try TraceFile(path: path, writeCall: writeCall)
      do {
        try next.write(header)
      } catch {
        next.discard()
        throw error
      }
      if keep > 0 {
        unlink("\(path).\(keep)")
        for index in stride(from: keep - 1, through: 1, by: -1) {
          rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        // A second name for the old segment, so that `path` is never missing; where links are
        // not supported, a rename leaves it missing until the next line.
        if link(path, "\(path).1") != 0 { rename(path, "\(path).1") }
      }
      try next.publish()
      try? file.close()
      file = next
      return true
    }
  }
}
