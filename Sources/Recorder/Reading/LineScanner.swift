#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the lines of a file in one sequential pass and reads what each one's first bytes say.
struct LineScanner {
  private let file: LineFile
  private var chunk: [UInt8]
  private var chunkOffset = 0
  private var chunkCount = 0
  private var position = 0
  private var isAtEnd = false
  private var lineStart = 0
  /// The first bytes of a line that began in an earlier chunk.
  private var carried: [UInt8] = []
  /// What the line `nextLine()` returned last starts with.
  private(set) var head = LineHead.other
  /// The number of the last line read, from 1: the one `nextLine()` returned, or a blank line
  /// read after it.
  private(set) var lineNumber = 0
  /// The first of the blank lines read since the last record: blank lines may only end a trace.
  private var firstBlankLine: Int?
  /// The length of a final line without its newline, once the end is reached.
  private(set) var tornLineLength = 0
  /// Where the line after the last whole line read starts: where a later scan may resume.
  var resumePoint: (offset: Int, line: Int) { (lineStart, lineNumber) }

  static let headLength = 48
  static let maximumChunkSize = 1 << 20
  private let chunkSize: Int
  private let maximumLineLength: Int

  /// A scanner from the start of `file`, or from `resuming`: the offset after a whole line and
  /// that line's number, where an earlier scan of a file that has grown since stopped.
  init(file: LineFile, maximumLineLength: Int, resuming: (offset: Int, line: Int)? = nil) {
    precondition(maximumLineLength <= Int(UInt32.max), "line lengths are stored in 32 bits")
    self.file = file
    if let resuming {
      chunkOffset = resuming.offset
      lineStart = resuming.offset
      lineNumber = resuming.line
    }
    self.maximumLineLength = maximumLineLength
    // A small file needs no more buffer than its size (a pipe or device reports 0).
    chunkSize = file.size > 0 ? min(Self.maximumChunkSize, file.size + 1) : Self.maximumChunkSize
    chunk = [UInt8](repeating: 0, count: chunkSize)
  }

  mutating func nextLine() throws(TraceReadError) -> LineLocation? {
    while true {
      if position == chunkCount {
        if isAtEnd { return try finish() }
        try refill()
        continue
      }
      let start = position
      let newline: Int? = chunk.withUnsafeBytes { bytes -> Int? in
        guard
          let hit = memchr(
            bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), chunkCount - start)
        else { return nil }
        return UnsafeRawPointer(hit) - bytes.baseAddress!
      }
      guard let newline else {
        guard chunkOffset + chunkCount - lineStart <= maximumLineLength else {
          throw TraceReadError(
            path: file.path, line: lineNumber + 1, kind: .malformed,
            message: lineTooLong(maximumLineLength))
        }
        // The line goes on into the next chunk: keep its first bytes.
        if carried.count < Self.headLength {
          carried.append(
            contentsOf: chunk[start..<min(chunkCount, start + Self.headLength - carried.count)])
        }
        position = chunkCount
        continue
      }
      let end = chunkOffset + newline
      let length = end - lineStart
      let headIsBlank: Bool
      if carried.isEmpty {
        head = chunk.withUnsafeBytes { bytes in
          LineHead(
            UnsafeRawBufferPointer(rebasing: bytes[start..<min(newline, start + Self.headLength)]))
        }
        headIsBlank = isBlank(chunk[start..<min(newline, start + Self.headLength)])
      } else {
        if carried.count < Self.headLength {
          carried.append(
            contentsOf: chunk[start..<min(newline, start + Self.headLength - carried.count)])
        }
        head = carried.withUnsafeBytes { LineHead($0) }
        headIsBlank = isBlank(carried[...])
        carried.removeAll(keepingCapacity: true)
      }
      position = newline + 1
      lineNumber += 1
      guard length <= maximumLineLength else {
        throw TraceReadError(
          path: file.path, line: lineNumber, kind: .malformed,
          message: lineTooLong(maximumLineLength))
      }
      let line = LineLocation(offset: lineStart, length: length, number: lineNumber)
      let lineOffset = lineStart
      lineStart = end + 1
      // A line longer than its head is read again to be sure: rare, since records start with `{`.
      var isBlankLine = headIsBlank && length <= Self.headLength
      if headIsBlank, !isBlankLine { isBlankLine = try isBlankInFile(at: lineOffset, length: length) }
      if isBlankLine {
        firstBlankLine = firstBlankLine ?? lineNumber
        continue
      }
      if let blank = firstBlankLine {
        throw TraceReadError(
          path: file.path, line: blank, kind: .malformed, message: blankLineInside)
      }
      return line
    }
  }

  private mutating func finish() throws(TraceReadError) -> LineLocation? {
    let length = chunkOffset + chunkCount - lineStart
    // Spaces after the last newline are not a record cut short.
    let isBlankTail = length > 0 ? try isBlankInFile(at: lineStart, length: length) : false
    tornLineLength = isBlankTail ? 0 : length
    return nil
  }

  /// Whether the `length` bytes at `offset` are blank; a long run is taken as not blank.
  private func isBlankInFile(at offset: Int, length: Int) throws(TraceReadError) -> Bool {
    guard length <= Self.maximumChunkSize else { return false }
    var bytes = [UInt8](repeating: 0, count: length)
    let read = try file.read(into: &bytes, count: length, at: offset)
    return isBlank(bytes[..<read])
  }

  private mutating func refill() throws(TraceReadError) {
    chunkOffset += chunkCount
    let offset = chunkOffset
    let count = try file.read(into: &chunk, count: chunkSize, at: offset)
    chunkCount = count
    position = 0
    if count < chunkSize { isAtEnd = true }
  }
}

extension Error {
  var message: String {
    (self as? TraceFormatError)?.message ?? "\(self)"
  }
}
