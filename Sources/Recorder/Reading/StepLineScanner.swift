#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A step as a full scan reads it: the members `summary` and `log` use, without the action's
/// value, the dependency values or the types.
public struct ScannedStep: Sendable, Equatable {
  /// The step's index.
  public var index: Int
  /// Seconds since recording started.
  public var time: Double
  /// Where the action came from.
  public var origin: TraceStep.Origin
  /// The action's label; empty when the scan was not asked for labels.
  public var label: String
  /// The effects the step started.
  public var effects: [Int]
  /// Whether the action was recorded, so the step can be replayed.
  public var isReplayable: Bool
  /// Whether the step changed the value the scan watches; `true` when it watches none.
  public var changed: Bool

  /// The scanned form of a fully parsed step.
  public init(_ step: TraceStep, changed: Bool = true) {
    self.init(
      index: step.index, time: step.time, origin: step.origin, label: step.label,
      effects: step.effects, isReplayable: step.isReplayable, changed: changed)
  }

  /// A step with these members.
  public init(
    index: Int, time: Double, origin: TraceStep.Origin, label: String, effects: [Int],
    isReplayable: Bool, changed: Bool = true
  ) {
    self.index = index
    self.time = time
    self.origin = origin
    self.label = label
    self.effects = effects
    self.isReplayable = isReplayable
    self.changed = changed
  }
}

/// Reads a step line without building its JSON: checks the whole line's syntax in one pass,
/// notes where each top-level member is, and parses only the patch (and the label, when asked).
///
/// It is stricter than the full parser, never looser: whatever it does not expect (a byte
/// outside ASCII in a string, an escaped key, a member it does not know, a number with many
/// digits, deep nesting, a `deps` member, any value of the wrong type) makes it return `nil`,
/// and the caller parses the line in full, which decides, with the full parser's error. So a
/// line it accepts is one the full parser accepts, with the same members.
struct StepLineScanner {
  /// The members of a step line, as bits of ``seen``.
  private enum Member: Int {
    case kind, index, time, origin, cause, action, label, patch, deps, effects, types
  }

  private let base: UnsafePointer<UInt8>
  private let count: Int
  private var position = 0
  private var depth = 0
  /// Values still allowed, the line's object counted, as the parser counts.
  private var valuesLeft = maximumTraceLineValueCount - 1
  /// The key ranges of the objects being read, innermost last, to find duplicate keys.
  private var keys: [(start: Int, end: Int)] = []
  private var ranges = [Range<Int>](repeating: 0..<0, count: 11)
  private var seen = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) {
    base = bytes.baseAddress!
    count = bytes.count
    keys.reserveCapacity(16)
  }

  /// The step on this line, or `nil` when the line must be parsed in full.
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, labels: Bool, pointers: PointerCache = PointerCache()
  ) -> (ScannedStep, JSONPatch)? {
    guard bytes.count > 2, bytes.baseAddress != nil else { return nil }
    var scanner = StepLineScanner(bytes)
    guard scanner.readTopLevel() else { return nil }
    return scanner.step(labels: labels, pointers: pointers)
  }

  /// The pointers of recent patches, by their text: a trace's patches name few paths, and
  /// parsing one costs more than finding it.
  final class PointerCache {
    private var texts: [[UInt8]] = []
    private var pointers: [JSONPointer] = []
    private var next = 0

    init() {}

    func pointer(_ text: UnsafeBufferPointer<UInt8>) -> JSONPointer? {
      for (index, known) in texts.enumerated() where known.count == text.count {
        if known.withUnsafeBufferPointer({ memcmp($0.baseAddress!, text.baseAddress!, text.count) })
          == 0
        {
          return pointers[index]
        }
      }
      guard let pointer = JSONPointer(String(decoding: text, as: UTF8.self)) else { return nil }
      if texts.count < 32 {
        texts.append(Array(text))
        pointers.append(pointer)
      } else {
        texts[next] = Array(text)
        pointers[next] = pointer
        next = (next + 1) % 32
      }
      return pointer
    }
  }

  // MARK: - Members

  private func has(_ member: Member) -> Bool { seen & (1 << member.rawValue) != 0 }
  private func range(_ member: Member) -> Range<Int> { ranges[member.rawValue] }

  private func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
    guard range.count == literal.utf8CodeUnitCount else { return false }
    return memcmp(base + range.lowerBound, literal.utf8Start, range.count) == 0
  }

  /// A count written as plain digits (at most 15, so below 2^53), or `nil`.
  private func countValue(_ range: Range<Int>) -> Int? {
    guard !range.isEmpty, range.count <= 15 else { return nil }
    var value = 0
    for offset in range {
      let digit = base[offset] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + Int(digit)
    }
    return value
  }

  /// The value in `range` parsed in full (small: a patch, a number, a label).
  private func parse(_ range: Range<Int>) -> JSONValue? {
    try? JSONValue(
      parsing: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count),
      maximumValueCount: maximumTraceLineValueCount)
  }

  private func step(labels: Bool, pointers: PointerCache) -> (ScannedStep, JSONPatch)? {
    let required: [Member] = [.kind, .index, .time, .origin, .action, .label, .patch]
    guard required.allSatisfy(has), equals(range(.kind), #""step""#),
      let index = countValue(range(.index))
    else { return nil }
    // Anything in `deps` is checked member by member: the full parser does that.
    if has(.deps), !equals(range(.deps), "[]") { return nil }
    guard let time = parse(range(.time))?.doubleValue else { return nil }
    let origin: TraceStep.Origin
    if equals(range(.origin), #""send""#) {
      origin = .send
    } else if equals(range(.origin), #""effect""#) {
      if !has(.cause) || equals(range(.cause), "null") {
        origin = .effect(cause: nil)
      } else {
        guard let cause = countValue(range(.cause)) else { return nil }
        origin = .effect(cause: cause)
      }
    } else {
      return nil
    }
    let label = range(.label)
    guard base[label.lowerBound] == UInt8(ascii: "\"") else { return nil }
    var text = ""
    if labels {
      let inner = (label.lowerBound + 1)..<(label.upperBound - 1)
      if memchr(base + inner.lowerBound, Int32(UInt8(ascii: "\\")), inner.count) == nil {
        text = String(
          decoding: UnsafeBufferPointer(start: base + inner.lowerBound, count: inner.count),
          as: UTF8.self)
      } else {
        guard let decoded = parse(label)?.stringValue else { return nil }
        text = decoded
      }
    }
    var effects: [Int] = []
    if has(.effects) {
      guard case .array(let elements)? = parse(range(.effects)) else { return nil }
      for element in elements {
        guard let number = element.int64Value, (0...maximumTraceNumber).contains(number) else {
          return nil
        }
        effects.append(Int(number))
      }
    }
    guard let patch = readPatch(range(.patch), pointers: pointers) else { return nil }
    let step = ScannedStep(
      index: index, time: time, origin: origin, label: text, effects: effects,
      isReplayable: !equals(range(.action), "null"))
    return (step, patch)
  }

  // MARK: - Patch

  /// The patch in `range`, already checked as JSON, read the way `JSONPatch(json:)` reads it
  /// for the operations the recorder writes; `nil` for anything else, which that reads.
  private func readPatch(_ range: Range<Int>, pointers: PointerCache) -> JSONPatch? {
    var position = range.lowerBound
    func skipWhitespace() {
      while position < range.upperBound,
        base[position] == 0x20 || base[position] == 0x0A || base[position] == 0x0D
          || base[position] == 0x09
      {
        position += 1
      }
    }
    /// A string without escapes, as the range of its contents.
    func plainString() -> Range<Int>? {
      guard base[position] == UInt8(ascii: "\"") else { return nil }
      let start = position + 1
      guard let end = memchr(base + start, Int32(UInt8(ascii: "\"")), range.upperBound - start)
      else { return nil }
      let stop = UnsafePointer<UInt8>(end.assumingMemoryBound(to: UInt8.self)) - base
      guard memchr(base + start, Int32(UInt8(ascii: "\\")), stop - start) == nil else { return nil }
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
          var skipper = self
          skipper.position = start
          guard skipper.skipValue() else { return nil }
          position = skipper.position
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
      skipWhitespace()
      if base[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      guard base[position] == UInt8(ascii: "]") else { return nil }
      return JSONPatch(operations)
    }
  }

  private func pointer(_ text: Range<Int>, _ pointers: PointerCache) -> JSONPointer? {
    pointers.pointer(UnsafeBufferPointer(start: base + text.lowerBound, count: text.count))
  }

  /// The value in `range`, already checked as JSON, as the parser reads it.
  private func value(_ range: Range<Int>) -> JSONValue? {
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
    default:
      return parse(range)
    }
  }

  // MARK: - Syntax

  private static let memberNames: [(StaticString, Member)] = [
    ("kind", .kind), ("index", .index), ("time", .time), ("origin", .origin), ("cause", .cause),
    ("action", .action), ("label", .label), ("patch", .patch), ("deps", .deps),
    ("effects", .effects), ("types", .types),
  ]

  /// Reads the line's one object, noting its members; `false` to leave the line to the parser.
  private mutating func readTopLevel() -> Bool {
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
      guard skipValue() else { return false }
      ranges[member.rawValue] = valueStart..<position
      skipWhitespace()
      guard position < count else { return false }
      if base[position] == UInt8(ascii: ",") {
        position += 1
      } else if base[position] == UInt8(ascii: "}") {
        position += 1
        break
      } else {
        return false
      }
    }
    skipWhitespace()
    return position == count
  }

  private static func member(named key: Range<Int>, _ base: UnsafePointer<UInt8>) -> Member? {
    for (name, member) in memberNames where name.utf8CodeUnitCount == key.count {
      if memcmp(base + key.lowerBound, name.utf8Start, key.count) == 0 { return member }
    }
    return nil
  }

  private mutating func skipValue() -> Bool {
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

  private mutating func skipLiteral(_ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard count - position >= length, memcmp(base + position, literal.utf8Start, length) == 0
    else { return false }
    position += length
    return true
  }

  private mutating func skipArray() -> Bool {
    depth += 1
    // Far below the parser's limit: deeper values are left to it.
    guard depth <= 64 else { return false }
    defer { depth -= 1 }
    position += 1
    skipWhitespace()
    if position < count, base[position] == UInt8(ascii: "]") {
      position += 1
      return true
    }
    while true {
      skipWhitespace()
      guard skipValue() else { return false }
      skipWhitespace()
      guard position < count else { return false }
      if base[position] == UInt8(ascii: ",") {
        position += 1
      } else if base[position] == UInt8(ascii: "]") {
        position += 1
        return true
      } else {
        return false
      }
    }
  }

  private mutating func skipObject() -> Bool {
    depth += 1
    guard depth <= 64 else { return false }
    defer { depth -= 1 }
    position += 1
    let firstKey = keys.count
    defer { while keys.count > firstKey { keys.removeLast() } }
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
      guard keys.count - firstKey < 32 else { return false }
      for other in keys[firstKey...] where other.end - other.start == keyEnd - keyStart {
        if memcmp(base + other.start, base + keyStart, keyEnd - keyStart) == 0 { return false }
      }
      keys.append((keyStart, keyEnd))
      skipWhitespace()
      guard position < count, base[position] == UInt8(ascii: ":") else { return false }
      position += 1
      skipWhitespace()
      guard skipValue() else { return false }
      skipWhitespace()
      guard position < count else { return false }
      if base[position] == UInt8(ascii: ",") {
        position += 1
      } else if base[position] == UInt8(ascii: "}") {
        position += 1
        return true
      } else {
        return false
      }
    }
  }

  /// Skips a string of printable ASCII, with escapes when allowed; anything else is left to
  /// the parser, which checks UTF-8.
  private mutating func skipString(allowEscapes: Bool) -> Bool {
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

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
  }

  /// Skips a number the parser reads without trouble: at most 200 digits before the point and
  /// an exponent of at most two digits, so it is always in range (any number of digits after
  /// the point, as times have).
  private mutating func skipNumber() -> Bool {
    if base[position] == UInt8(ascii: "-") { position += 1 }
    var digits = 0
    guard position < count, Self.isDigit(base[position]) else { return false }
    if base[position] == UInt8(ascii: "0") {
      position += 1
      digits = 1
      if position < count, Self.isDigit(base[position]) { return false }
    } else {
      while position < count, Self.isDigit(base[position]) {
        position += 1
        digits += 1
      }
    }
    guard digits <= 200 else { return false }
    if position < count, base[position] == UInt8(ascii: ".") {
      position += 1
      guard position < count, Self.isDigit(base[position]) else { return false }
      while position < count, Self.isDigit(base[position]) { position += 1 }
    }
    if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      var exponentDigits = 0
      while position < count, Self.isDigit(base[position]) {
        position += 1
        exponentDigits += 1
      }
      guard (1...2).contains(exponentDigits) else { return false }
    }
    return true
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  private mutating func skipWhitespace() {
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
