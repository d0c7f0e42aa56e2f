#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// A file read by offset, shared by the scanner and the index. Only `pread`s it: threads share
/// it safely.
// unchecked: lets only; the descriptor is read with `pread`, which threads may share
final class LineFile: @unchecked Sendable {
  let path: String
  let descriptor: Int32
  /// The size when opened.
  let size: Int

  init(path: String) throws(TraceReadError) {
    self.path = path
    (descriptor, size) = try Self.openForReading(path)
  }

  /// The same open file again, with its size now: for a file that grows while it is read.
  init(reopening file: LineFile) throws(TraceReadError) {
    path = file.path
    descriptor = dup(file.descriptor)
    var status = stat()
    guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
      if descriptor >= 0 { close(descriptor) }
      throw TraceReadError(
        path: path, line: nil, kind: .missing, message: String(cString: strerror(errno)))
    }
    size = Int(status.st_size)
  }

  /// Opens the trace at `path` to read: its descriptor and size. A missing file and a directory
  /// are errors naming the path.
  static func openForReading(_ path: String) throws(TraceReadError) -> (descriptor: Int32, size: Int) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
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
    return (descriptor, Int(status.st_size))
  }

  deinit {
    close(descriptor)
  }

  /// Fills `buffer` from `offset` on, or as much of it as the file holds; returns the count.
  func read(into buffer: inout [UInt8], count: Int, at offset: Int) throws(TraceReadError) -> Int {
    try buffer.withUnsafeMutableBufferPointer { (bytes) throws(TraceReadError) in
      try read(into: bytes.baseAddress!, count: count, at: offset)
    }
  }

  /// Fills `count` bytes at `pointer` from `offset` on, or as many as the file holds; returns
  /// the count.
  func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int)
    throws(TraceReadError) -> Int
  {
    var total = 0
    while total < count {
      let read = pread(descriptor, pointer + total, count - total, off_t(offset + total))
      if read < 0, errno == EINTR { continue }
      if read < 0 {
        total = -1
        break
      }
      if read == 0 { break }
      total += read
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

/// Where each step's line is, in about 10 bytes a step: a ``LineLocation`` takes 16, and an
/// array of them grown by doubling held half as much again while it grew.
///
/// Steps are kept in blocks of 4,096, each holding its first line's offset and number, then per
/// step the offset and number from there (32 and 16 bits) and the length. A block whose lines
/// span more than 4 GiB or 65,535 lines widens to full integers; blocks never move once full.
struct StepLineTable {
  private struct Block {
    var offset: Int
    var number: Int
    var offsets: [UInt32] = []
    var numbers: [UInt16] = []
    var lengths: [UInt32] = []
    /// Set when a step is more than 4 GiB past the block's first one.
    var wideOffsets: [Int]?
    /// Set when a step is more than 65,535 lines past the block's first one.
    var wideNumbers: [Int]?

    init(first: LineLocation) {
      offset = first.offset
      number = first.number
      offsets.reserveCapacity(StepLineTable.blockSize)
      numbers.reserveCapacity(StepLineTable.blockSize)
      lengths.reserveCapacity(StepLineTable.blockSize)
    }

    mutating func append(_ line: LineLocation) {
      let offset = line.offset - self.offset
      if wideOffsets == nil, offset > Int(UInt32.max) { wideOffsets = offsets.map(Int.init) }
      if wideOffsets != nil {
        wideOffsets!.append(offset)
      } else {
        offsets.append(UInt32(offset))
      }
      let number = line.number - self.number
      if wideNumbers == nil, number > Int(UInt16.max) { wideNumbers = numbers.map(Int.init) }
      if wideNumbers != nil {
        wideNumbers!.append(number)
      } else {
        numbers.append(UInt16(number))
      }
      lengths.append(UInt32(line.length))
    }

    subscript(position: Int) -> LineLocation {
      LineLocation(
        offset: offset + (wideOffsets?[position] ?? Int(offsets[position])),
        length: Int(lengths[position]),
        number: number + (wideNumbers?[position] ?? Int(numbers[position])))
    }
  }

  static let blockSize = 4096
  private var blocks: [Block] = []
  /// How many steps the table holds.
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  mutating func append(_ line: LineLocation) {
    if count % Self.blockSize == 0 {
      blocks.append(Block(first: line))
    }
    blocks[blocks.count - 1].append(line)
    count += 1
  }

  subscript(position: Int) -> LineLocation {
    precondition(position >= 0 && position < count, "step position \(position) out of range")
    return blocks[position / Self.blockSize][position % Self.blockSize]
  }
}
