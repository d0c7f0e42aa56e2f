#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StepLineScanner {
  static let memberNames: [(StaticString, Member)] = [
    ("kind", .kind), ("index", .index), ("time", .time), ("origin", .origin), ("cause", .cause),
    ("action", .action), ("label", .label), ("patch", .patch), ("deps", .deps),
    ("effects", .effects), ("types", .types), ("cancels", .cancels),
    ("cancellable", .cancellable),
  ]

  /// Reads the line's one object, noting its members; `false` to leave the line to the parser.
  mutating func readTopLevel(_ cache: PointerCache) -> Bool {
    skipWhitespace()
    guard position < count, base[position] == UInt8(ascii: "{") else { return false }
    position += 1
    depth = 1
    skipWhitespace()
    guard position < count, base[position] != UInt8(ascii: "}") else { return false }
    while true {
      skipWhitespace()
      guard position < count, base[position] == UInt8(ascii: "\"") else { return false }
      let keyStart = position + 1
      guard skipString(allowEscapes: false) else { return false }
      let key = keyStart..<(position - 1)
      guard let member = Self.member(named: key, base) else { return false }
      guard seen & (1 << member.rawValue) == 0 else { return false }
      seen |= 1 << member.rawValue
      skipWhitespace()
      guard position < count, base[position] == UInt8(ascii: ":") else { return false }
      position += 1
      skipWhitespace()
      let valueStart = position
      if member == .action, let known = cache.knownAction(at: base + position, count - position) {
        // The same bytes as an action this thread checked: the same verdict, the same count.
        valuesLeft -= known.values
        guard valuesLeft >= 0 else { return false }
        position += known.length
      } else {
        let valuesBefore = valuesLeft
        guard skipValue() else { return false }
        if member == .action, base[valueStart] == UInt8(ascii: "{") {
          cache.remember(
            action: UnsafeBufferPointer(start: base + valueStart, count: position - valueStart),
            values: valuesBefore - valuesLeft)
        }
      }
      ranges[member.rawValue] = valueStart..<position
      guard let next = separator(closing: UInt8(ascii: "}")) else { return false }
      if next == .closed { break }
    }
    skipWhitespace()
    return position == count
  }

  /// What follows a member or an element.
  enum Separator { case more, closed }

  /// Reads the comma or the `closing` bracket after a member or an element, with the whitespace
  /// around it; `nil` for anything else.
  @inline(__always)
  mutating func separator(closing: UInt8) -> Separator? {
    skipWhitespace()
    guard position < count else { return nil }
    if base[position] == UInt8(ascii: ",") {
      position += 1
      return .more
    }
    guard base[position] == closing else { return nil }
    position += 1
    return .closed
  }

  /// Objects deeper, or with more keys, are left to the parser.
  static let maximumDepth = 64
  static let maximumKeysPerObject = 32

  static func member(named key: Range<Int>, _ base: UnsafePointer<UInt8>) -> Member? {
    // The candidate by length and first byte, then one comparison: no table walk per key.
    let candidate: Member
    switch (key.count, key.isEmpty ? 0 : base[key.lowerBound]) {
    case (4, UInt8(ascii: "k")): candidate = .kind
    case (5, UInt8(ascii: "i")): candidate = .index
    case (4, UInt8(ascii: "t")): candidate = .time
    case (6, UInt8(ascii: "o")): candidate = .origin
    case (5, UInt8(ascii: "c")): candidate = .cause
    case (6, UInt8(ascii: "a")): candidate = .action
    case (5, UInt8(ascii: "l")): candidate = .label
    case (5, UInt8(ascii: "p")): candidate = .patch
    case (4, UInt8(ascii: "d")): candidate = .deps
    case (7, UInt8(ascii: "e")): candidate = .effects
    case (5, UInt8(ascii: "t")): candidate = .types
    case (7, UInt8(ascii: "c")): candidate = .cancels
    case (11, UInt8(ascii: "c")): candidate = .cancellable
    default: return nil
    }
    let name = memberNames[candidate.rawValue].0
    return memcmp(base + key.lowerBound, name.utf8Start, key.count) == 0 ? candidate : nil
  }

  mutating func skipValue() -> Bool {
    guard position < count else { return false }
    valuesLeft -= 1
    guard valuesLeft >= 0 else { return false }
    switch base[position] {
    case UInt8(ascii: "\""): return skipString(allowEscapes: true)
    case UInt8(ascii: "{"): return skipObject()
    case UInt8(ascii: "["): return skipArray()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return skipNumber()
    case UInt8(ascii: "t"): return skipLiteral("true")
    case UInt8(ascii: "f"): return skipLiteral("false")
    case UInt8(ascii: "n"): return skipLiteral("null")
    default: return false
    }
  }

  mutating func skipLiteral(_ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard count - position >= length, memcmp(base + position, literal.utf8Start, length) == 0
    else { return false }
    position += length
    return true
  }

  mutating func skipArray() -> Bool {
    depth += 1
    // Far below the parser's limit: deeper values are left to it.
    guard depth <= Self.maximumDepth else { return false }
    defer { depth -= 1 }
    position += 1
    skipWhitespace()
    if position < count, base[position] == UInt8(ascii: "]") {
      position += 1
      return true
    }
    while true {
      skipWhitespace()
      guard skipValue(), let next = separator(closing: UInt8(ascii: "]")) else { return false }
      if next == .closed { return true }
    }
  }

  mutating func skipObject() -> Bool {
    depth += 1
    guard depth <= Self.maximumDepth else { return false }
    defer { depth -= 1 }
    position += 1
    let firstKey = keyCount
    defer { keyCount = firstKey }
    skipWhitespace()
    if position < count, base[position] == UInt8(ascii: "}") {
      position += 1
      return true
    }
    while true {
      skipWhitespace()
      guard position < count, base[position] == UInt8(ascii: "\"") else { return false }
      let keyStart = position + 1
      // An escaped key could equal another written plainly: the parser decides those.
      guard skipString(allowEscapes: false) else { return false }
      let keyEnd = position - 1
      // A duplicate key is an error to the parser; many keys are left to it.
      guard keyCount - firstKey < Self.maximumKeysPerObject else { return false }
      for other in firstKey..<keyCount
      where keys[other].end - keys[other].start == keyEnd - keyStart {
        if memcmp(base + keys[other].start, base + keyStart, keyEnd - keyStart) == 0 {
          return false
        }
      }
      keys[keyCount] = (keyStart, keyEnd)
      keyCount += 1
      skipWhitespace()
      guard position < count, base[position] == UInt8(ascii: ":") else { return false }
      position += 1
      skipWhitespace()
      guard skipValue(), let next = separator(closing: UInt8(ascii: "}")) else { return false }
      if next == .closed { return true }
    }
  }

  /// Skips a string of printable ASCII, with escapes when allowed; anything else is left to
  /// the parser, which checks UTF-8.
  mutating func skipString(allowEscapes: Bool) -> Bool {
    position += 1
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while true {
      // Eight bytes at a time while none is a quote, a backslash, a control or non-ASCII byte.
      while count - position >= 8 {
        let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let special =
          ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
          | (word &- ones &* 0x20) | word
        if special & highs != 0 { break }
        position += 8
      }
      guard position < count else { return false }
      let byte = base[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return true
      } else if byte == UInt8(ascii: "\\") {
        guard allowEscapes, position + 1 < count else { return false }
        switch base[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          position += 2
        case UInt8(ascii: "u"):
          guard count - position >= 6 else { return false }
          for offset in 2..<6 where !Self.isHexDigit(base[position + offset]) { return false }
          position += 6
        default:
          return false
        }
      } else if byte < 0x20 || byte >= 0x80 {
        return false
      } else {
        position += 1
      }
    }
  }

  static func isHexDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
  }

  /// Skips a number the parser reads without trouble: at most 200 digits before the point and
  /// an exponent of at most two digits, so it is always in range (any number of digits after
  /// the point, as times have).
  mutating func skipNumber() -> Bool {
    guard let end = Self.numberEnd(base, from: position, count: count) else { return false }
    position = end
    return true
  }

  /// Where the number that starts at `start` ends, for a number the parser reads without
  /// trouble; `nil` for anything else. A line's shape checks the numbers it leaves out with it.
  static func numberEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
    var position = start
    if position < count, base[position] == UInt8(ascii: "-") { position += 1 }
    var digits = 0
    guard position < count, isDigit(base[position]) else { return nil }
    if base[position] == UInt8(ascii: "0") {
      position += 1
      digits = 1
      if position < count, isDigit(base[position]) { return nil }
    } else {
      while position < count, isDigit(base[position]) {
        position += 1
        digits += 1
      }
    }
    guard digits <= 200 else { return nil }
    if position < count, base[position] == UInt8(ascii: ".") {
      position += 1
      guard position < count, isDigit(base[position]) else { return nil }
      while position < count, isDigit(base[position]) { position += 1 }
    }
    if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      var exponentDigits = 0
      while position < count, isDigit(base[position]) {
        position += 1
        exponentDigits += 1
      }
      guard (1...2).contains(exponentDigits) else { return nil }
    }
    return position
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  mutating func skipWhitespace() {
    while position < count {
      switch base[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
        position += 1
      default:
        return
      }
    }
  }
}
