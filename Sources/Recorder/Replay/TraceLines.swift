#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a trace's lines as bytes, without parsing them: what lets a parallel replay hand the
/// parsing to its threads.
///
/// Like ``TraceReader``, it streams, numbers lines from 1, and drops an incomplete last line
/// with a warning worded the same way.
final class TraceLines {
  let path: String
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  private var isAtEnd = false
  /// The number of the line ``next()`` returned last.
  private(set) var line = 0
  /// Set when the trace ended in an incomplete line.
  private(set) var warning: String?
  private static let blockSize = 4 << 20

  init(path: String) throws(ReplayError) {
    self.path = path
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw ReplayError(
        TraceReadError(
          path: path, line: nil, kind: .missing, message: String(cString: strerror(errno))
        )
      )
    }
  }

  deinit {
    close(descriptor)
  }

  /// Reads the first line, which must be a header record.
  func header() throws(ReplayError) -> TraceHeader {
    guard let first = try next() else {
      throw failure("the trace is empty", line: nil)
    }
    guard case let .header(header)? = try Self.record(first, path: path, line: 1) else {
      throw failure("the first line is not a header record", line: 1)
    }
    return header
  }

  /// The next line, without its newline; `nil` at the end of the trace.
  func next() throws(ReplayError) -> ArraySlice<UInt8>? {
    while true {
      let newline = buffer.withUnsafeBytes { bytes -> Int? in
        guard start < bytes.count,
          let found = memchr(bytes.baseAddress! + start, 10, bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - bytes.baseAddress!
      }
      if let newline {
        let bytes = buffer[start..<newline]
        start = newline + 1
        line += 1
        return bytes
      }
      if isAtEnd {
        if start < buffer.count {
          warning = "\(path):\(line + 1): warning: the last line is incomplete "
            + "(\(buffer.count - start) bytes); the recorder probably stopped mid-write. "
            + "It was skipped."
          start = buffer.count
        }
        return nil
      }
      try fill()
    }
  }

  /// Reads the next block after the bytes not yet returned.
  private func fill() throws(ReplayError) {
    let old = buffer
    let oldStart = start
    let kept = old.count - oldStart
    var result = 0
    buffer = [UInt8](unsafeUninitializedCapacity: kept + Self.blockSize) { storage, count in
      if kept > 0 {
        old.withUnsafeBytes { bytes in
          _ = memcpy(storage.baseAddress!, bytes.baseAddress! + oldStart, kept)
        }
      }
      result = read(descriptor, storage.baseAddress! + kept, Self.blockSize)
      count = kept + max(result, 0)
    }
    start = 0
    guard result >= 0 else {
      throw ReplayError(
        TraceReadError(
          path: path, line: nil, kind: .missing, message: String(cString: strerror(errno))
        )
      )
    }
    if result == 0 { isAtEnd = true }
  }

  private func failure(_ message: String, line: Int?) -> ReplayError {
    ReplayError(TraceReadError(path: path, line: line, kind: .malformed, message: message))
  }

  /// Parses one line into a record; `nil` for a kind this version does not know.
  static func record(_ bytes: ArraySlice<UInt8>, path: String, line: Int) throws(ReplayError)
    -> TraceRecord?
  {
    do {
      let json = try JSONValue(parsing: bytes)
      do {
        return try TraceRecord(json: json)
      } catch {
        throw ReplayError(
          TraceReadError(path: path, line: line, kind: .malformed, message: error.message)
        )
      }
    } catch let error as ReplayError {
      throw error
    } catch {
      throw ReplayError(
        TraceReadError(
          path: path, line: line, kind: .malformed, message: "not valid JSON: \(error)"
        )
      )
    }
  }
}
