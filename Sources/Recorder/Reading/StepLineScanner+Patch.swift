import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StepLineScanner {
  /// The patch in `range`, already checked as JSON, read the way `JSONPatch(json:)` reads it
  /// for the operations the recorder writes; `nil` for anything else, which that reads.
  func readPatch(_ range: Range<Int>, pointers: PointerCache) -> JSONPatch? {
    var position = range.lowerBound
    func skipWhitespace() {
      while position < range.upperBound,
        base[position] == 0x20 || base[position] == 0x0A || base[position] == 0x0D
          || base[position] == 0x09
      {
        position += 1
      }
    }
    /// A string without escapes, as the range of its contents. The patch is checked, so the
    /// string ends before the range does; the strings here are short, so a loop beats `memchr`.
    func plainString() -> Range<Int>? {
      guard base[position] == UInt8(ascii: "\"") else { return nil }
      let start = position + 1
      var stop = start
      while stop < range.upperBound, base[stop] != UInt8(ascii: "\"") {
        if base[stop] == UInt8(ascii: "\\") { return nil }
        stop += 1
      }
      guard stop < range.upperBound else { return nil }
      position = stop + 1
      return start..<stop
    }
    var operations: [JSONPatch.Operation] = []
    operations.reserveCapacity(4)
    guard base[position] == UInt8(ascii: "[") else { return nil }
    position += 1
    skipWhitespace()
    if base[position] == UInt8(ascii: "]") { return JSONPatch([]) }
    while true {
      skipWhitespace()
      guard base[position] == UInt8(ascii: "{") else { return nil }
      position += 1
      var op: Range<Int>?
      var path: Range<Int>?
      var from: Range<Int>?
      var value: Range<Int>?
      while true {
        skipWhitespace()
        guard let key = plainString() else { return nil }
        skipWhitespace()
        position += 1  // The colon.
        skipWhitespace()
        if equals(key, "op") {
          op = plainString()
          if op == nil { return nil }
        } else if equals(key, "path") {
          path = plainString()
          if path == nil { return nil }
        } else if equals(key, "from") {
          from = plainString()
          if from == nil { return nil }
        } else if equals(key, "value") {
          let start = position
          if let end = checkedScalarEnd(from: start, before: range.upperBound) {
            position = end
          } else {
            var skipper = self
            skipper.position = start
            guard skipper.skipValue() else { return nil }
            position = skipper.position
          }
          value = start..<position
        } else {
          return nil
        }
        skipWhitespace()
        if base[position] == UInt8(ascii: ",") {
          position += 1
          continue
        }
        guard base[position] == UInt8(ascii: "}") else { return nil }
        position += 1
        break
      }
      guard let op, let path, let pathPointer = pointer(path, pointers) else { return nil }
      let operation: JSONPatch.Operation
      if equals(op, "replace") || equals(op, "test") || equals(op, "add") {
        guard let value, let json = self.value(value) else { return nil }
        operation =
          equals(op, "replace")
          ? .replace(path: pathPointer, value: json)
          : equals(op, "test") ? .test(path: pathPointer, value: json) : .add(path: pathPointer, value: json)
      } else if equals(op, "remove") {
        operation = .remove(path: pathPointer)
      } else if equals(op, "move") || equals(op, "copy") {
        guard let from, let fromPointer = pointer(from, pointers) else { return nil }
        operation =
          equals(op, "move")
          ? .move(from: fromPointer, path: pathPointer) : .copy(from: fromPointer, path: pathPointer)
      } else {
        return nil
      }
      operations.append(operation)
      pointers.operationValues.append(value)
      skipWhitespace()
      if base[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      guard base[position] == UInt8(ascii: "]") else { return nil }
      return JSONPatch(operations)
    }
  }

  /// Where a number or a string without escapes that starts at `start` ends, in a value
  /// already checked as JSON; `nil` for anything else, which is skipped as a whole value.
  func checkedScalarEnd(from start: Int, before end: Int) -> Int? {
    var offset = start
    switch base[start] {
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      offset += 1
      while offset < end {
        switch base[offset] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"),
          UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
          offset += 1
        default:
          return offset
        }
      }
      return nil
    case UInt8(ascii: "\""):
      offset += 1
      while offset < end, base[offset] != UInt8(ascii: "\"") {
        if base[offset] == UInt8(ascii: "\\") { return nil }
        offset += 1
      }
      return offset < end ? offset + 1 : nil
    default:
      return nil
    }
  }

  func pointer(_ text: Range<Int>, _ pointers: PointerCache) -> JSONPointer? {
    pointers.pointer(UnsafeBufferPointer(start: base + text.lowerBound, count: text.count))
  }

  /// The value in `range`, already checked as JSON, as the parser reads it.
  func value(_ range: Range<Int>) -> JSONValue? {
    switch base[range.lowerBound] {
    case UInt8(ascii: "t"): return .bool(true)
    case UInt8(ascii: "f"): return .bool(false)
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "\""):
      let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
      if memchr(base + inner.lowerBound, Int32(UInt8(ascii: "\\")), inner.count) == nil {
        return .string(
          String(
            decoding: UnsafeBufferPointer(start: base + inner.lowerBound, count: inner.count),
            as: UTF8.self))
      }
      return parse(range)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      if let integer = integerValue(range) { return .integer(integer) }
      return parse(range)
    default:
      return parse(range)
    }
  }
}
