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
