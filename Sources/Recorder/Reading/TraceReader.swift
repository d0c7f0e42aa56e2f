#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a trace file record by record, streaming, without loading the file into memory.
///
/// ```swift
/// let reader = try TraceReader(path: "Traces/counter.ndjson")
/// while let record = try reader.next() { … }
/// if let warning = reader.warning { print(warning) }
/// ```
///
/// Errors name the file, the line and the problem. A final line without its newline is what a
/// killed recorder leaves: it is dropped, with a ``warning``, and the rest still reads.
public final class TraceReader {
  /// The file being read.
  public let path: String
  /// The line number of the record ``next()`` returned last, from 1.
  public private(set) var line = 0
  /// Set when the trace ended in an incomplete line.
  public private(set) var warning: String?

  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var chunk = [UInt8](repeating: 0, count: TraceReader.chunkSize)
  private var start = 0
  /// Where the search for the next newline resumes: bytes before it are known not to be one.
  private var searched = 0
  private var isAtEnd = false
  private static let chunkSize = 1 << 20

  /// Opens the trace at `path`.
  public init(path: String) throws(TraceReadError) {
    self.path = path
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw TraceReadError(
        path: path, line: nil, kind: .missing, message: String(cString: strerror(errno))
      )
    }
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }

  /// The next record, or `nil` at the end of the trace. Records of unknown kinds are skipped.
  public func next() throws(TraceReadError) -> TraceRecord? {
    while let bytes = try nextLine() {
      let json: JSONValue
      do {
        json = try bytes.withUnsafeBytes { buffer throws(JSONParseError) in
          try JSONValue(parsing: buffer)
        }
      } catch {
        throw failure("not valid JSON: \(error)")
      }
      let record: TraceRecord?
      do {
        record = try TraceRecord(json: json)
      } catch {
        throw failure(error.message)
      }
      if line == 1 {
        guard case .header = record else { throw failure("the first line is not a header record") }
      }
      if let record { return record }
    }
    if line == 0 {
      let problem =
        warning == nil
        ? "the trace is empty"
        : "the trace has no complete line: it does not end in a newline"
      throw failure(problem, line: nil)
    }
    return nil
  }

  /// Applies `step`'s patch, read last, to the state before it.
  ///
  /// - Throws: ``TraceReadError`` naming the step's line when the patch does not apply.
  public func apply(_ step: TraceStep, to state: JSONValue) throws(TraceReadError) -> JSONValue {
    do {
      return try step.patch.apply(to: state)
    } catch {
      throw failure("the patch of step \(step.index) does not apply: \(error)")
    }
  }

  private func failure(_ message: String, line: Int? = -1) -> TraceReadError {
    TraceReadError(path: path, line: line == -1 ? self.line : line, kind: .malformed, message: message)
  }

  /// The bytes of the next complete line, without its newline.
  private func nextLine() throws(TraceReadError) -> ArraySlice<UInt8>? {
    while true {
      let from = max(start, searched)
      // memchr: fast in debug builds too, where a generic search costs a call per byte.
      let found: Int? = buffer.withUnsafeBytes { bytes -> Int? in
        guard from < bytes.count,
          let hit = memchr(bytes.baseAddress! + from, Int32(UInt8(ascii: "\n")), bytes.count - from)
        else { return nil }
        return UnsafeRawPointer(hit) - bytes.baseAddress!
      }
      if let newline = found {
        let bytes = buffer[start..<newline]
        start = newline + 1
        searched = start
        line += 1
        return bytes
      }
      // A long line: do not search these bytes again after the next read.
      searched = buffer.count
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

  private func fill() throws(TraceReadError) {
    if start > 0 {
      buffer.removeSubrange(0..<start)
      searched -= start
      start = 0
    }
    let count = chunk.withUnsafeMutableBytes { bytes in
      read(descriptor, bytes.baseAddress!, bytes.count)
    }
    guard count >= 0 else {
      throw TraceReadError(
        path: path, line: nil, kind: .missing, message: String(cString: strerror(errno))
      )
    }
    // A slice of an array appends as one copy, even in a debug build.
    buffer.append(contentsOf: chunk[0..<count])
    if count == 0 { isAtEnd = true }
  }
}

/// A trace that cannot be read: missing, or not following the trace format.
public struct TraceReadError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure this is; each maps to an exit code of the command-line tool.
  public enum Kind: Sendable {
    /// The file does not exist or cannot be opened.
    case missing
    /// The file is not a valid trace.
    case malformed
  }

  /// The trace file.
  public var path: String
  /// The line the problem is on, from 1; `nil` for the file as a whole.
  public var line: Int?
  /// What kind of failure this is.
  public var kind: Kind
  /// The problem, in one line.
  public var message: String

  /// Creates an error about `path`, at `line` if the problem is on one line.
  public init(path: String, line: Int?, kind: Kind, message: String) {
    self.path = path
    self.line = line
    self.kind = kind
    self.message = message
  }

  public var description: String {
    "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
  }
}
