import TraceJSON

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
/// killed recorder leaves: it is dropped, with a ``warning``, and the rest still reads. Blank
/// lines at the end are ignored (a blank line before a record is an error), and a line longer
/// than 256 MiB is an error rather than a wait for a newline that may never come (`/dev/zero`).
///
/// A rotated recording is read as its kept set (``TraceSegments/readingOrder(of:)``): the older
/// segments first, by `firstStep`, each one's header read as ``continuation`` rather than
/// returned, and ``path`` and ``line`` naming the segment being read.
package final class TraceReader {
  /// The file being read: a segment of a rotated recording names its own.
  package private(set) var path: String
  /// The line number of the record ``next()`` returned last, from 1 (at the end, of the last
  /// line read, blank ones included).
  package private(set) var line = 0
  /// The header of the segment the last line read opened, when it continues a rotated set; the
  /// checked reader checks that it starts where the segment before ended.
  package private(set) var continuation: TraceHeader?
  /// Set when the trace ended in an incomplete line.
  package var warning: String? {
    tornLine.map { "\($0.path):\($0.line): warning: " + Self.tornLineText(bytes: $0.bytes) }
  }
  /// ``warning`` without its `warning:` tag, for reports that add their own.
  var warningMessage: String? {
    tornLine.map { "\($0.path):\($0.line): " + Self.tornLineText(bytes: $0.bytes) }
  }
  private var tornLine: (path: String, line: Int, bytes: Int)?
  /// The newer segments still to read, oldest first.
  private var laterSegments: ArraySlice<String>
  private var isInLaterSegment = false
  private var hasHeader = false
  /// The first of the blank lines read since the last record: blank lines may only end a trace.
  private var firstBlankLine: Int?

  /// What a warning says of an incomplete last line of `bytes` bytes.
  static func tornLineText(bytes: Int) -> String {
    "the last line is incomplete (\(counted(bytes, "byte"))); the recorder probably stopped "
      + "mid-write. "
      + "It was skipped."
  }

  private var descriptor: Int32
  private var buffer: [UInt8] = []
  /// Reads for lines longer than a chunk land here first; allocated only if one turns up.
  private lazy var chunk = [UInt8](repeating: 0, count: TraceReader.chunkSize)
  private var start = 0
  /// Where the search for the next newline resumes: bytes before it are known not to be one.
  private var searched = 0
  private var isAtEnd = false
  private let maximumLineLength: Int
  private static let chunkSize = 1 << 20

  /// Opens the trace at `path`.
  package convenience init(path: String) throws(TraceReadError) {
    try self.init(path: path, maximumLineLength: maximumTraceLineLength)
  }

  /// Opens the one file at `path`, even when it is the newest segment of a rotated set.
  package convenience init(segmentAt path: String) throws(TraceReadError) {
    try self.init(path: path, maximumLineLength: maximumTraceLineLength, wholeSet: false)
  }

  /// Opens the trace at `path`, refusing lines longer than `maximumLineLength` bytes; a rotated
  /// set whole unless `wholeSet` is `false`.
  init(path: String, maximumLineLength: Int, wholeSet: Bool = true) throws(TraceReadError) {
    let segments = wholeSet ? TraceSegments.readingOrder(of: path) : [path]
    self.path = segments[0]
    laterSegments = segments.dropFirst()
    self.maximumLineLength = maximumLineLength
    descriptor = try LineFile.openForReading(self.path).descriptor
  }

  deinit {
    close(descriptor)
  }

  /// The next record, or `nil` at the end of the trace. Records of unknown kinds are skipped.
  package func next() throws(TraceReadError) -> TraceRecord? {
    while let bytes = try nextLine() {
      guard hasHeader else {
        hasHeader = true
        return .header(try TraceHeader(parsingFirstLine: bytes, path: path, line: line))
      }
      if let record = try TraceRecord(parsingLine: bytes, path: path, line: line) { return record }
    }
    if !hasHeader {
      throw failure(noRecordProblem(endsInTornLine: tornLine != nil), line: nil)
    }
    return nil
  }

  /// Applies `step`'s patch, read last, to the state before it, in place: a big state is not
  /// copied.
  ///
  /// - Throws: ``TraceReadError`` naming the step's line when the patch does not apply; `state`
  ///   may then be partly changed.
  package func apply(_ step: TraceStep, to state: inout JSONValue) throws(TraceReadError) {
    do {
      try step.patch.apply(to: &state)
    } catch {
      throw failure(patchProblem(step: step.index, error))
    }
  }

  private func failure(_ message: String, line: Int? = -1) -> TraceReadError {
    TraceReadError(
      path: path, line: line == -1 ? self.line : line, kind: .malformed, message: message)
  }

  /// The bytes of the next complete line, without its newline, unparsed: what ``next()``
  /// parses.
  func nextLine() throws(TraceReadError) -> ArraySlice<UInt8>? {
    continuation = nil
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
        guard newline - start <= maximumLineLength else {
          throw failure(lineTooLong(maximumLineLength), line: line + 1)
        }
        let bytes = buffer[start..<newline]
        start = newline + 1
        searched = start
        line += 1
        if isBlank(bytes) {
          firstBlankLine = firstBlankLine ?? line
          continue
        }
        if let blank = firstBlankLine { throw failure(blankLineInside, line: blank) }
        // A later segment's header is its own line 1: kept aside, not handed on.
        if line == 1, isInLaterSegment {
          continuation = try TraceHeader(parsingFirstLine: bytes, path: path, line: line)
          continue
        }
        return bytes
      }
      guard buffer.count - start <= maximumLineLength else {
        throw failure(lineTooLong(maximumLineLength), line: line + 1)
      }
      // A long line: do not search these bytes again after the next read.
      searched = buffer.count
      if isAtEnd {
        if start < buffer.count {
          // Spaces after the last newline are not a record cut short.
          if !isBlank(buffer[start...]) { tornLine = (path, line + 1, buffer.count - start) }
          start = buffer.count
        }
        guard let next = laterSegments.popFirst() else { return nil }
        try openSegment(next)
        continue
      }
      try fill()
    }
  }

  /// Reads on from the start of the next segment of a rotated set.
  private func openSegment(_ next: String) throws(TraceReadError) {
    let opened = try LineFile.openForReading(next).descriptor
    close(descriptor)
    descriptor = opened
    path = next
    line = 0
    buffer = []
    start = 0
    searched = 0
    isAtEnd = false
    firstBlankLine = nil
    isInLaterSegment = true
  }

  private func fill() throws(TraceReadError) {
    let kept = buffer.count - start
    var count = 0
    if kept <= Self.chunkSize {
      // The usual case: a new buffer of the unread bytes, read into directly, with no zeroing
      // and no second copy.
      let old = buffer
      let oldStart = start
      buffer = [UInt8](unsafeUninitializedCapacity: kept + Self.chunkSize) { storage, length in
        if kept > 0 {
          old.withUnsafeBytes { _ = memcpy(storage.baseAddress!, $0.baseAddress! + oldStart, kept) }
        }
        count = read(descriptor, storage.baseAddress! + kept, Self.chunkSize)
        length = kept + max(count, 0)
      }
    } else {
      // A line longer than a chunk: grow the buffer (geometrically) rather than copy it whole
      // on every read.
      if start > 0 { buffer.removeSubrange(0..<start) }
      count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      // A slice of an array appends as one copy, even in a debug build.
      if count > 0 { buffer.append(contentsOf: chunk[0..<count]) }
    }
    searched -= start
    start = 0
    guard count >= 0 else {
      throw TraceReadError(
        path: path, line: nil, kind: .missing, message: String(cString: strerror(errno))
      )
    }
    if count == 0 { isAtEnd = true }
  }
}

/// The longest line a reader accepts: far more than a keyframe of any app's state, and a bound
/// on what an endless stream without a newline can make a reader hold.
let maximumTraceLineLength = 256 << 20  // Line lengths are stored in 32 bits.

/// The most values one line may hold (every scalar, array element and object member): a
/// keyframe of 100,000 todos holds about 600,000. A bound on what a short line of `[1,1,1,…]`
/// makes a reader build: 20 million of them took 8 s and 870 MB before it was refused.
let maximumTraceLineValueCount = 1 << 20

/// The error message for a line longer than `limit` bytes.
func lineTooLong(_ limit: Int) -> String {
  let size = limit > 0 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
  return "the line is longer than \(size), more than a trace line can be"
}

extension TraceReader {
  /// Reads the first line, which must be a header record; ``nextLine()`` then reads the second.
  func readHeader() throws(TraceReadError) -> TraceHeader {
    guard let first = try nextLine() else {
      throw TraceReadError(
        path: path, line: nil, kind: .malformed,
        message: noRecordProblem(endsInTornLine: warning != nil))
    }
    return try TraceHeader(parsingFirstLine: first, path: path, line: line)
  }
}

/// What is wrong with a trace that has no record at all.
func noRecordProblem(endsInTornLine: Bool) -> String {
  endsInTornLine
    ? "the trace has no complete line: it does not end in a newline" : "the trace is empty"
}

extension TraceHeader {
  /// Parses a trace's first line, which must be a header record. A step or other record up
  /// front is named as not a header, rather than by the members a header would have.
  init(parsingFirstLine bytes: ArraySlice<UInt8>, path: String, line: Int)
    throws(TraceReadError)
  {
    let notHeader = TraceReadError(
      path: path, line: line, kind: .malformed, message: "the first line is not a header record")
    if bytes.starts(with: #"{"kind":""#.utf8), !bytes.starts(with: #"{"kind":"header""#.utf8) {
      throw notHeader
    }
    guard case .header(let header)? = try TraceRecord(parsingLine: bytes, path: path, line: line)
    else { throw notHeader }
    self = header
  }
}

/// The error for a blank line followed by a record.
let blankLineInside = "the line is blank: blank lines may only end a trace"

/// Whether a line holds nothing but spaces, tabs and carriage returns: ignored at a trace's end.
/// Every record starts with `{`, so most lines are told apart by their first byte.
func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
  guard let first = bytes.first else { return true }
  guard first != UInt8(ascii: "{") else { return false }
  return bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
}

/// A trace that cannot be read: missing, or not following the trace format.
package struct TraceReadError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure this is; each maps to an exit code of the command-line tool.
  package enum Kind: Sendable {
    /// The file does not exist or cannot be opened.
    case missing
    /// The file is not a valid trace.
    case malformed
  }

  /// The trace file.
  package var path: String
  /// The line the problem is on, from 1; `nil` for the file as a whole.
  package var line: Int?
  /// What kind of failure this is.
  package var kind: Kind
  /// The problem, in one line.
  package var message: String

  /// Creates an error about `path`, at `line` if the problem is on one line.
  package init(path: String, line: Int?, kind: Kind, message: String) {
    self.path = path
    self.line = line
    self.kind = kind
    self.message = message
  }

  package var description: String {
    "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
  }
}

extension TraceRecord {
  /// Parses one line of a trace; `nil` for a kind this version does not know.
  ///
  /// - Throws: ``TraceReadError`` naming `path` and `line` when the line is not valid JSON or
  ///   not a valid record.
  init?(parsingLine bytes: ArraySlice<UInt8>, path: String, line: Int) throws(TraceReadError) {
    let json: JSONValue
    do {
      json = try bytes.withUnsafeBytes { (buffer) throws(JSONParseError) in
        try JSONValue(parsing: buffer, maximumValueCount: maximumTraceLineValueCount)
      }
    } catch {
      throw TraceReadError(
        path: path, line: line, kind: .malformed, message: "not valid JSON: \(error)"
      )
    }
    do {
      guard let record = try TraceRecord(json: json) else { return nil }
      self = record
    } catch {
      throw TraceReadError(path: path, line: line, kind: .malformed, message: error.message)
    }
  }
}
