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
    case kind, index, time, origin, cause, action, label, patch, deps, effects, types, cancels
    case cancellable
  }

  private let base: UnsafePointer<UInt8>
  private let count: Int
  private var position = 0
  private var depth = 0
  /// Values still allowed, the line's object counted, as the parser counts.
  private var valuesLeft = maximumTraceLineValueCount - 1
  /// The key ranges of the objects being read, innermost last, to find duplicate keys: the
  /// cache's buffer, reused from line to line.
  private let keys: UnsafeMutablePointer<(start: Int, end: Int)>
  private var keyCount = 0
  /// Inline, so a line allocates nothing to note where its members are.
  private var ranges = InlineArray<13, Range<Int>>(repeating: 0..<0)
  private var seen = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>, keys: UnsafeMutablePointer<(start: Int, end: Int)>) {
    base = bytes.baseAddress!
    count = bytes.count
    self.keys = keys
  }

  /// The step on this line, or `nil` when the line must be parsed in full.
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, labels: Bool, pointers: PointerCache = PointerCache()
  ) -> (ScannedStep, JSONPatch)? {
    guard bytes.count > 2, bytes.baseAddress != nil else { return nil }
    var scanner = StepLineScanner(bytes, keys: pointers.keys)
    guard scanner.readTopLevel(pointers) else { return nil }
    return scanner.step(labels: labels, pointers: pointers)
  }

  /// The pointers of recent patches, by their text: a trace's patches name few paths, and
  /// parsing one costs more than finding it. It also holds the room a scanner needs for keys,
  /// so that one thread's lines share it.
  final class PointerCache {
    private var texts: [[UInt8]] = []
    private var pointers: [JSONPointer] = []
    private var next = 0
    /// Room for every key a scan notes at once: 32 per object, 64 objects deep.
    fileprivate let keys = UnsafeMutablePointer<(start: Int, end: Int)>.allocate(
      capacity: StepLineScanner.maximumKeysPerObject * StepLineScanner.maximumDepth)

    init() {}

    deinit { keys.deallocate() }

    /// Actions written as objects that a scan checked, with how many values each holds: a
    /// trace's actions repeat, and comparing bytes costs less than checking them.
    private var actions: [(bytes: [UInt8], values: Int)] = []
    private var nextAction = 0

    /// The length and value count of a checked action that the bytes at `start` begin with.
    /// An object ends at its closing brace, so one that the bytes begin with is the whole value.
    fileprivate func knownAction(at start: UnsafePointer<UInt8>, _ available: Int)
      -> (length: Int, values: Int)?
    {
      for action in actions where action.bytes.count <= available {
        let same = action.bytes.withUnsafeBufferPointer {
          memcmp($0.baseAddress!, start, $0.count) == 0
        }
        if same { return (action.bytes.count, action.values) }
      }
      return nil
    }

    fileprivate func remember(action: UnsafeBufferPointer<UInt8>, values: Int) {
      guard action.count <= 256 else { return }
      if actions.count < 16 {
        actions.append((Array(action), values))
      } else {
        actions[nextAction] = (Array(action), values)
        nextAction = (nextAction + 1) % 16
      }
    }

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

  /// The number in `range`, already checked as JSON, as the parser reads it: `strtod` rounds
  /// correctly, as the parser does; when it stops elsewhere (another locale's decimal point),
  /// the parser decides.
  private func number(_ range: Range<Int>) -> Double? {
    if let integer = integerValue(range) { return Double(integer) }
    // The parser's exact path, for as many digits as most times have: a significand below 2^53
    // and a power of ten up to 10^22 are exact, so one division rounds correctly, as it does.
    var offset = range.lowerBound
    let negative = base[offset] == UInt8(ascii: "-")
    if negative { offset += 1 }
    var significand: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var inFraction = false
    while offset < range.upperBound, digits <= 18 {
      let byte = base[offset]
      if byte == UInt8(ascii: ".") {
        inFraction = true
      } else {
        let digit = byte &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        significand = significand * 10 + UInt64(digit)
        digits += 1
        if inFraction { fractionDigits += 1 }
      }
      offset += 1
    }
    if offset == range.upperBound, inFraction, significand < 1 << 53, fractionDigits <= 22 {
      let value = Double(significand) / Self.exactPowersOfTen[fractionDigits]
      return negative ? -value : value
    }
    var end: UnsafeMutablePointer<CChar>?
    let value = UnsafeRawPointer(base + range.lowerBound).withMemoryRebound(
      to: CChar.self, capacity: range.count
    ) { strtod($0, &end) }
    guard let end: UnsafeMutablePointer<CChar> = end,
      Int(bitPattern: end) == Int(bitPattern: base + range.upperBound),
      value.isFinite
    else { return parse(range)?.doubleValue }
    return value
  }

  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// An integer of at most 18 digits, with its sign, as the parser reads it; `nil` otherwise.
  private func integerValue(_ range: Range<Int>) -> Int64? {
    var offset = range.lowerBound
    let negative = base[offset] == UInt8(ascii: "-")
    if negative { offset += 1 }
    guard range.upperBound - offset <= 18, offset < range.upperBound else { return nil }
    var value: Int64 = 0
    while offset < range.upperBound {
      let digit = base[offset] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + Int64(digit)
      offset += 1
    }
    return negative ? -value : value
  }

  /// Whether the value in `range`, already checked as JSON, is an array of strings only.
  private func isArrayOfStrings(_ range: Range<Int>) -> Bool {
    var offset = range.lowerBound
    guard base[offset] == UInt8(ascii: "[") else { return false }
    offset += 1
    while offset < range.upperBound {
      switch base[offset] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"),
        UInt8(ascii: ","), UInt8(ascii: "]"):
        offset += 1
      case UInt8(ascii: "\""):
        // A checked string: it ends at the first quote not escaped.
        offset += 1
        while base[offset] != UInt8(ascii: "\"") {
          offset += base[offset] == UInt8(ascii: "\\") ? 2 : 1
        }
        offset += 1
      default:
        return false
      }
    }
    return true
  }

  /// The value in `range` parsed in full (small: a patch, a number, a label).
  private func parse(_ range: Range<Int>) -> JSONValue? {
    try? JSONValue(
      parsing: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count),
      maximumValueCount: maximumTraceLineValueCount)
  }

  private static let required = [Member.kind, .index, .time, .origin, .action, .label, .patch]
    .reduce(0) { $0 | 1 << $1.rawValue }

  private func step(labels: Bool, pointers: PointerCache) -> (ScannedStep, JSONPatch)? {
    guard seen & Self.required == Self.required, equals(range(.kind), #""step""#),
      let index = countValue(range(.index))
    else { return nil }
    // Anything in `deps` is checked member by member: the full parser does that.
    if has(.deps), !equals(range(.deps), "[]") { return nil }
    // Effect names the parser reads as arrays of strings; the scan does not keep them.
    for member in [Member.cancels, .cancellable] where has(member) {
      guard isArrayOfStrings(range(member)) else { return nil }
    }
    guard let time = number(range(.time)) else { return nil }
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
  private func checkedScalarEnd(from start: Int, before end: Int) -> Int? {
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
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      if let integer = integerValue(range) { return .integer(integer) }
      return parse(range)
    default:
      return parse(range)
    }
  }

  // MARK: - Syntax

  private static let memberNames: [(StaticString, Member)] = [
    ("kind", .kind), ("index", .index), ("time", .time), ("origin", .origin), ("cause", .cause),
    ("action", .action), ("label", .label), ("patch", .patch), ("deps", .deps),
    ("effects", .effects), ("types", .types), ("cancels", .cancels),
    ("cancellable", .cancellable),
  ]

  /// Reads the line's one object, noting its members; `false` to leave the line to the parser.
  private mutating func readTopLevel(_ cache: PointerCache) -> Bool {
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

  /// Objects deeper, or with more keys, are left to the parser.
  fileprivate static let maximumDepth = 64
  fileprivate static let maximumKeysPerObject = 32

  private static func member(named key: Range<Int>, _ base: UnsafePointer<UInt8>) -> Member? {
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
