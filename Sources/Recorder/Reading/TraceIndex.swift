#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace opened for random access: where each step's line starts, and where the keyframes are.
///
/// Opening reads the file once, in fixed-size chunks, and keeps only offsets: a million-step
/// trace costs about 12 bytes a step of memory, not the file. A step is parsed when it is asked
/// for.
///
/// ```swift
/// let trace = try TraceIndex(path: "Traces/todos.ndjson")
/// let step = try trace.step(at: 41)
/// let state = try trace.state(afterStep: 41)
/// ```
///
/// Lines this build writes are recognised by their first bytes (`{"kind":"step","index":…`), so
/// indexing does not parse JSON. Any other line is parsed in full. A step line that is broken
/// past its first bytes is reported when it is read, with its file and line.
public final class TraceIndex {
  /// The trace file.
  public let path: String
  /// The trace's first record.
  public let header: TraceHeader
  /// The end record, when the recorder closed the trace cleanly.
  public var end: TraceEnd? { contents.end }
  /// The crash record, when the process crashed while recording.
  public var crash: TraceCrash? { contents.crash }
  /// Set when the file ends in an incomplete line, which was skipped.
  public let warning: String?
  /// The keyframes: the step each follows, in order.
  public var keyframes: [Keyframe] { contents.keyframes }
  /// How many effect records the trace holds.
  public var effectRecordCount: Int { contents.effectRecordCount }
  /// The runs of steps the recorder lost to failed writes, in order.
  public var gaps: [Gap] { contents.gaps }

  /// Steps a `gap` record declares lost.
  public struct Gap: Sendable, Equatable {
    /// The lost steps.
    public var steps: ClosedRange<Int>
    /// Why: the write error.
    public var reason: String
    /// The gap record's line number, from 1.
    public var line: Int
  }

  /// Whether the recorder lost step `index` (see ``gaps``): it has no record.
  public func isLost(_ index: Int) -> Bool {
    gaps.contains { $0.steps.contains(index) }
  }

  /// Where a keyframe is.
  public struct Keyframe: Sendable, Equatable {
    /// The step the keyframe's state follows.
    public var step: Int
    fileprivate var line: LineLocation
  }

  private let file: LineFile
  private let contents: Contents
  private var stepLines: [LineLocation] { contents.stepLines }

  /// What one pass over the file finds. Built in a local value, then stored: mutating a class's
  /// arrays a million times would pay for a dynamic exclusivity check each time.
  private struct Contents {
    var stepLines: [LineLocation] = []
    var keyframes: [Keyframe] = []
    var effectRecordCount = 0
    var end: TraceEnd?
    var gaps: [Gap] = []
    var crash: TraceCrash?
  }

  /// The number of steps.
  public var stepCount: Int { stepLines.count }
  /// The index of the first step: 0 unless the file continues a rotated trace.
  public var firstStep: Int { header.firstStep }
  /// The indices of the steps, in order.
  public var stepIndices: Range<Int> { firstStep..<(firstStep + stepCount) }

  /// Opens and indexes the trace at `path`.
  ///
  /// - Throws: ``TraceReadError``: `.missing` when the file cannot be opened, `.malformed` with
  ///   the line when the header is missing or broken, a step index repeats or skips, or a line
  ///   that is not a step cannot be parsed.
  public convenience init(path: String) throws(TraceReadError) {
    try self.init(path: path, maximumLineLength: maximumTraceLineLength)
  }

  /// Opens and indexes the trace at `path`, refusing lines longer than `maximumLineLength`.
  init(path: String, maximumLineLength: Int) throws(TraceReadError) {
    self.path = path
    file = try LineFile(path: path)
    var scanner = LineScanner(file: file, maximumLineLength: maximumLineLength)
    guard let first = try scanner.nextLine() else {
      throw TraceReadError(
        path: path, line: nil, kind: .malformed,
        message: noRecordProblem(endsInTornLine: scanner.tornLineLength > 0))
    }
    header = try TraceHeader(
      parsingFirstLine: file.bytes(of: first, path: path), path: path, line: first.number)
    var contents = Contents()
    let firstStep = header.firstStep
    while let line = try scanner.nextLine() {
      // The common case, kept free of calls that retain the header or the file.
      if case .step(let index) = scanner.head, index == firstStep + contents.stepLines.count {
        contents.stepLines.append(line)
        continue
      }
      try Self.index(line, head: scanner.head, into: &contents, header: header, file: file)
    }
    self.contents = contents
    warning =
      scanner.tornLineLength == 0
      ? nil
      : "\(path):\(scanner.lineNumber + 1): warning: the last line is incomplete "
        + "(\(scanner.tornLineLength) bytes); the recorder probably stopped mid-write. "
        + "It was skipped."
  }

  private static func index(
    _ line: LineLocation, head: LineHead, into contents: inout Contents, header: TraceHeader,
    file: LineFile
  ) throws(TraceReadError) {
    let path = file.path
    func appendStep(_ index: Int) throws(TraceReadError) {
      let expected = header.firstStep + contents.stepLines.count
      guard index == expected else {
        throw TraceReadError(
          path: path, line: line.number, kind: .malformed,
          message: stepIndexProblem(index, expected))
      }
      contents.stepLines.append(line)
    }
    // A keyframe names the step it follows; one that names another would give wrong states.
    func appendKeyframe(_ index: Int) throws(TraceReadError) {
      let last = contents.stepLines.isEmpty ? nil : header.firstStep + contents.stepLines.count - 1
      guard index == last else {
        throw TraceReadError(
          path: path, line: line.number, kind: .malformed,
          message: keyframeIndexProblem(index, lastStep: last))
      }
      contents.keyframes.append(Keyframe(step: index, line: line))
    }
    switch head {
    case .step(let index):
      try appendStep(index)
    case .keyframe(let index):
      try appendKeyframe(index)
    case .effect:
      contents.effectRecordCount += 1
    case .other:
      // Not written the way this build writes: parse it to learn what it is.
      switch try file.record(at: line, path: path) {
      case .step(let step): try appendStep(step.index)
      case .keyframe(let keyframe): try appendKeyframe(keyframe.index)
      case .effect: contents.effectRecordCount += 1
      case .end(let record): contents.end = record
      case .gap(let gap):
        let expected = header.firstStep + contents.stepLines.count
        guard gap.from == expected else {
          throw TraceReadError(
            path: path, line: line.number, kind: .malformed,
            message: gapIndexProblem(gap, expected))
        }
        // Each lost step points at the gap's line, and the gap's state serves as a keyframe
        // after its last step: readers go on from there.
        contents.stepLines.append(contentsOf: repeatElement(line, count: gap.to - gap.from + 1))
        contents.keyframes.append(Keyframe(step: gap.to, line: line))
        contents.gaps.append(Gap(steps: gap.steps, reason: gap.reason, line: line.number))
      case .crash(let record): contents.crash = record
      case .header:
        throw TraceReadError(
          path: path, line: line.number, kind: .malformed,
          message: "a second header record; only the first line may be a header"
        )
      case nil: break
      }
    }
  }

  /// The step with index `index`.
  ///
  /// - Throws: ``TraceReadError`` naming the line when it is not a valid step record.
  public func step(at index: Int) throws(TraceReadError) -> TraceStep {
    precondition(stepIndices.contains(index), "step \(index) is not in \(stepIndices)")
    let line = stepLines[index - firstStep]
    let record = try file.record(at: line, path: path)
    if case .gap(let gap) = record {
      throw TraceReadError(
        path: path, line: line.number, kind: .malformed,
        message: "step \(index) was lost: the recorder could not write steps "
          + "\(gap.from)…\(gap.to) (\(gap.reason))")
    }
    guard case .step(let step) = record, step.index == index
    else {
      throw TraceReadError(
        path: path, line: line.number, kind: .malformed,
        message: "expected the record of step \(index)"
      )
    }
    return step
  }

  /// The line number, from 1, of the step with index `index`.
  public func lineNumber(ofStep index: Int) -> Int {
    stepLines[index - firstStep].number
  }

  /// The state after step `index`, or the initial state when `index` is `nil`.
  ///
  /// Starts from the nearest full state, the initial state or a keyframe, and applies the
  /// patches between: forwards from one before the step, or backwards, inverted, from a
  /// keyframe after it, whichever is nearer. Keyframes are far apart when states are big
  /// (see the format); taking the nearer one halves the worst case.
  public func state(afterStep index: Int?) throws(TraceReadError) -> JSONValue {
    guard let index else { return header.initialState }
    if let gap = gaps.first(where: { $0.steps.contains(index) }), index != gap.steps.upperBound {
      throw TraceReadError(
        path: path, line: gap.line, kind: .malformed,
        message: "step \(index) was lost: the recorder could not write steps "
          + "\(gap.steps.lowerBound)…\(gap.steps.upperBound) (\(gap.reason))")
    }
    // Keyframes are in step order: the first one after the step, and the one before it.
    let position = firstKeyframePosition(after: index)
    let before = position > 0 ? keyframes[position - 1] : nil
    let after = position < keyframes.count ? keyframes[position] : nil
    let walkedFromBefore = index - (before?.step ?? firstStep - 1)
    if let after, after.step - index < walkedFromBefore,
      // A patch without the `test`s that make it invertible sends us the other way.
      let state = try? walkingBack(from: after, to: index)
    {
      return state
    }
    var state = header.initialState
    var next = firstStep
    if let before {
      state = try keyframeState(before)
      next = before.step + 1
    }
    while next <= index {
      try apply(step(at: next), to: &state)
      next += 1
    }
    return state
  }

  /// The state after step `index`, undoing the steps from `keyframe` back to it.
  private func walkingBack(from keyframe: Keyframe, to index: Int) throws(TraceReadError)
    -> JSONValue
  {
    var state = try keyframeState(keyframe)
    var current = keyframe.step
    while current > index {
      try unapply(step(at: current), to: &state)
      current -= 1
    }
    return state
  }

  private func keyframeState(_ keyframe: Keyframe) throws(TraceReadError) -> JSONValue {
    let record = try file.record(at: keyframe.line, path: path)
    if case .gap(let gap) = record { return gap.state }
    guard case .keyframe(let record) = record else {
      throw TraceReadError(
        path: path, line: keyframe.line.number, kind: .malformed,
        message: "expected the keyframe after step \(keyframe.step)"
      )
    }
    return record.state
  }

  /// Applies a step's patch to the state before it, in place: a big state is not copied.
  ///
  /// - Throws: ``TraceReadError`` naming the step's line when the patch does not apply; `state`
  ///   may then be partly changed, and is rebuilt with ``state(afterStep:)``.
  public func apply(_ step: TraceStep, to state: inout JSONValue) throws(TraceReadError) {
    do {
      try step.patch.apply(to: &state)
    } catch {
      throw patchFailure(step, error, direction: "")
    }
  }

  /// Undoes a step's patch in place, from the state after it to the state before it.
  ///
  /// - Throws: as ``apply(_:to:)`` does.
  public func unapply(_ step: TraceStep, to state: inout JSONValue) throws(TraceReadError) {
    do {
      try step.patch.inverted().apply(to: &state)
    } catch {
      throw patchFailure(step, error, direction: " backwards")
    }
  }

  private func patchFailure(_ step: TraceStep, _ error: JSONPatchError, direction: String)
    -> TraceReadError
  {
    TraceReadError(
      path: path, line: lineNumber(ofStep: step.index), kind: .malformed,
      message: "the patch of step \(step.index) does not apply\(direction): \(error)"
    )
  }

  /// The position of the first keyframe whose step is after `index`; keyframes are in step order.
  private func firstKeyframePosition(after index: Int) -> Int {
    var low = 0
    var high = keyframes.count
    while low < high {
      let middle = (low + high) / 2
      if keyframes[middle].step <= index { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

/// Where a line is in the file.
struct LineLocation: Sendable, Equatable {
  var offset: Int
  private var storedLength: UInt32
  private var storedNumber: UInt32

  init(offset: Int, length: Int, number: Int) {
    self.offset = offset
    storedLength = UInt32(length)
    storedNumber = UInt32(truncatingIfNeeded: number)
  }

  var length: Int { Int(storedLength) }
  /// From 1.
  var number: Int { Int(storedNumber) }
}

/// A file read by offset, shared by the scanner and the index.
final class LineFile {
  let path: String
  let descriptor: Int32
  /// The size when opened.
  let size: Int

  init(path: String) throws(TraceReadError) {
    self.path = path
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw TraceReadError(
        path: path, line: nil, kind: .missing, message: String(cString: strerror(errno))
      )
    }
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw TraceReadError(path: path, line: nil, kind: .missing, message: "is a directory")
    }
    size = Int(status.st_size)
  }

  deinit {
    close(descriptor)
  }

  /// Fills `buffer` from `offset` on, or as much of it as the file holds; returns the count.
  func read(into buffer: inout [UInt8], count: Int, at offset: Int) throws(TraceReadError) -> Int {
    let total = buffer.withUnsafeMutableBytes { bytes in
      var total = 0
      while total < count {
        let read = pread(
          descriptor, bytes.baseAddress! + total, count - total, off_t(offset + total))
        if read < 0, errno == EINTR { continue }
        if read < 0 { return -1 }
        if read == 0 { break }
        total += read
      }
      return total
    }
    guard total >= 0 else {
      throw TraceReadError(
        path: path, line: nil, kind: .missing, message: String(cString: strerror(errno))
      )
    }
    return total
  }

  /// The record on `line`; `nil` for a kind this build does not know.
  func record(at line: LineLocation, path: String) throws(TraceReadError) -> TraceRecord? {
    try TraceRecord(parsingLine: bytes(of: line, path: path), path: path, line: line.number)
  }

  /// The bytes of `line`, without its newline.
  func bytes(of line: LineLocation, path: String) throws(TraceReadError) -> ArraySlice<UInt8> {
    var bytes = [UInt8](repeating: 0, count: line.length)
    let count = try read(into: &bytes, count: line.length, at: line.offset)
    guard count == line.length else {
      throw TraceReadError(
        path: path, line: line.number, kind: .malformed,
        message: "the file is shorter than when it was indexed; was it truncated?"
      )
    }
    return bytes[...]
  }
}

/// What a line's first bytes say it is, for lines written the way this build writes them.
enum LineHead: Equatable {
  case step(Int)
  case keyframe(Int)
  case effect
  /// Anything else: the line must be parsed to know.
  case other

  private static let stepMarker: StaticString = #"{"kind":"step","index":"#
  private static let keyframeMarker: StaticString = #"{"kind":"keyframe","index":"#
  private static let effectMarker: StaticString = #"{"kind":"effect","#

  /// Reads the first bytes of a line.
  init(_ bytes: UnsafeRawBufferPointer) {
    if let index = Self.integer(after: Self.stepMarker, in: bytes) {
      self = .step(index)
    } else if let index = Self.integer(after: Self.keyframeMarker, in: bytes) {
      self = .keyframe(index)
    } else if Self.starts(bytes, with: Self.effectMarker) {
      self = .effect
    } else {
      self = .other
    }
  }

  private static func starts(_ bytes: UnsafeRawBufferPointer, with marker: StaticString) -> Bool {
    let count = marker.utf8CodeUnitCount
    guard bytes.count >= count else { return false }
    // Eight bytes at a time, inline: this runs once per line of a million-line trace.
    let expected = UnsafeRawPointer(marker.utf8Start)
    var offset = 0
    while offset + 8 <= count {
      guard
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < count {
      guard bytes[offset] == expected.load(fromByteOffset: offset, as: UInt8.self) else {
        return false
      }
      offset += 1
    }
    return true
  }

  /// The decimal integer right after `marker`, when the bytes start with it.
  private static func integer(after marker: StaticString, in bytes: UnsafeRawBufferPointer) -> Int?
  {
    guard starts(bytes, with: marker) else { return nil }
    var value = 0
    var position = marker.utf8CodeUnitCount
    while position < bytes.count, position - marker.utf8CodeUnitCount < 18 {
      let digit = bytes[position] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value * 10 + Int(digit)
      position += 1
    }
    // No digits, or too many to be an index written by this build: let the parser decide.
    guard position > marker.utf8CodeUnitCount, position < bytes.count,
      bytes[position] == UInt8(ascii: ",")
    else { return nil }
    return value
  }
}

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

  static let headLength = 48
  static let maximumChunkSize = 1 << 20
  private let chunkSize: Int
  private let maximumLineLength: Int

  init(file: LineFile, maximumLineLength: Int) {
    precondition(maximumLineLength <= Int(UInt32.max), "line lengths are stored in 32 bits")
    self.file = file
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
