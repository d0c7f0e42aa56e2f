import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a step line without building its JSON: checks the whole line's syntax in one pass,
/// notes where each top-level member is, and parses only the patch (and the label, when asked).
///
/// It is stricter than the full parser, never looser: whatever it does not expect (a byte
/// outside ASCII in a string, an escaped key, a member it does not know, a number with many
/// digits, deep nesting, a `deps` member, any value of the wrong type) makes it return `nil`,
/// and the caller parses the line in full, which decides, with the full parser's error. So a
/// line it accepts is one the full parser accepts, with the same members.
///
/// Fast path of `TraceRecord(parsingLine:)`; `TraceScanTests.neverLooser` keeps them equal.
struct StepLineScanner {
  /// The members of a step line, as bits of ``seen``.
  enum Member: Int {
    case kind, index, time, origin, cause, action, label, patch, deps, effects, types, cancels
    case cancellable
  }

  let base: UnsafePointer<UInt8>
  let count: Int
  var position = 0
  var depth = 0
  /// Values still allowed, the line's object counted, as the parser counts.
  var valuesLeft = maximumTraceLineValueCount - 1
  /// The key ranges of the objects being read, innermost last, to find duplicate keys: the
  /// cache's buffer, reused from line to line.
  let keys: UnsafeMutablePointer<(start: Int, end: Int)>
  var keyCount = 0
  /// Inline, so a line allocates nothing to note where its members are.
  var ranges = InlineArray<13, Range<Int>>(repeating: 0..<0)
  var seen = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>, keys: UnsafeMutablePointer<(start: Int, end: Int)>) {
    base = bytes.baseAddress!
    count = bytes.count
    self.keys = keys
  }

  /// The step on this line, or `nil` when the line must be parsed in full. With `json`, the
  /// step's ``ScannedStep/json`` holds its `log --json` listing.
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, labels: Bool, json: Bool = false,
    pointers: PointerCache = PointerCache()
  ) -> (ScannedStep, JSONPatch)? {
    guard bytes.count > 2, let start = bytes.baseAddress else { return nil }
    var scanner = StepLineScanner(bytes, keys: pointers.keys)
    // A line of a shape this thread has read: its bytes compared, its numbers read.
    if let shape = pointers.shapes.match(start, count: bytes.count),
      let read = scanner.step(shape, holes: pointers.shapes.holes, labels: labels, json: json)
    {
      return read
    }
    guard scanner.readTopLevel(pointers) else { return nil }
    pointers.operationValues.removeAll(keepingCapacity: true)
    guard var read = scanner.step(labels: labels, pointers: pointers) else { return nil }
    let learning = pointers.shapes.isLearning
    guard json || learning else { return read }
    guard let label = labels ? read.0.label : scanner.labelText(),
      let (middle, tail) = scanner.listingParts(label: label)
    else { return json ? nil : read }
    if json {
      read.0.listingMiddle = middle
      read.0.listingTail = tail
    }
    if learning {
      scanner.learn(read.0, read.1, label: label, middle: middle, tail: tail, pointers: pointers)
    }
    return read
  }

  // MARK: - Members

  /// The label, decoded; `nil` when it is not a string.
  func labelText() -> String? {
    let label = range(.label)
    guard base[label.lowerBound] == UInt8(ascii: "\"") else { return nil }
    let inner = (label.lowerBound + 1)..<(label.upperBound - 1)
    if memchr(base + inner.lowerBound, Int32(UInt8(ascii: "\\")), inner.count) == nil {
      return String(
        decoding: UnsafeBufferPointer(start: base + inner.lowerBound, count: inner.count),
        as: UTF8.self)
    }
    return parse(label)?.stringValue
  }

  func has(_ member: Member) -> Bool { seen & (1 << member.rawValue) != 0 }
  func range(_ member: Member) -> Range<Int> { ranges[member.rawValue] }

  func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
    guard range.count == literal.utf8CodeUnitCount else { return false }
    return memcmp(base + range.lowerBound, literal.utf8Start, range.count) == 0
  }

  /// A count written as plain digits (at most 15, so below 2^53), or `nil`.
  func countValue(_ range: Range<Int>) -> Int? {
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
  func number(_ range: Range<Int>) -> Double? {
    // One pass over the digits: the integer, or the significand and the digits after the
    // point. Leading zeros are not significant (times below a second have several).
    var offset = range.lowerBound
    let negative = base[offset] == UInt8(ascii: "-")
    if negative { offset += 1 }
    var significand: UInt64 = 0
    var digits = 0
    /// Reads a run of digits into the significand.
    func readDigits() {
      while offset < range.upperBound {
        let digit = base[offset] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        significand = significand &* 10 &+ UInt64(digit)
        if significand != 0 { digits += 1 }
        offset += 1
      }
    }
    let integerStart = offset
    readDigits()
    if offset == range.upperBound {
      // An integer of at most 18 digits, as the parser reads it, then as a Double.
      if offset - integerStart <= 18 {
        let value = Int64(significand)
        return Double(negative ? -value : value)
      }
    } else if base[offset] == UInt8(ascii: ".") {
      offset += 1
      let fractionStart = offset
      readDigits()
      let fractionDigits = offset - fractionStart
      if offset == range.upperBound, digits <= 19 {
        // A significand below 2^53 and a power of ten up to 10^22 are exact, so one division
        // rounds correctly, as the parser does.
        if significand < 1 << 53, fractionDigits <= 22 {
          let value = Double(significand) / Self.exactPowersOfTen[fractionDigits]
          return negative ? -value : value
        }
        #if arch(x86_64)
          // Up to 19 significant digits (a recorder's sums of times have 17) are exact in
          // Float80's 64-bit significand, and so is 10^27; the quotient is rounded once, to 64
          // bits. Rounding it again to a Double gives the correctly rounded value unless the
          // bits dropped are exactly a half: only then can the first rounding have crossed the
          // halfway point.
          if fractionDigits <= 27 {
            let quotient = Float80(significand) / Self.exactFloat80PowersOfTen[fractionDigits]
            if quotient.significandBitPattern & 0x7FF != 0x400 {
              let value = Double(quotient)
              return negative ? -value : value
            }
          }
        #endif
      }
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

  #if arch(x86_64)
    static let exactFloat80PowersOfTen: [Float80] = (0...27).map { power in
      (0..<power).reduce(Float80(1)) { value, _ in value * 10 }
    }
  #endif

  static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// An integer of at most 18 digits, with its sign, as the parser reads it; `nil` otherwise.
  func integerValue(_ range: Range<Int>) -> Int64? {
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
  func isArrayOfStrings(_ range: Range<Int>) -> Bool {
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
  func parse(_ range: Range<Int>) -> JSONValue? {
    try? JSONValue(
      parsing: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count),
      maximumValueCount: maximumTraceLineValueCount)
  }

  static let required = [Member.kind, .index, .time, .origin, .action, .label, .patch]
    .reduce(0) { $0 | 1 << $1.rawValue }

  func step(labels: Bool, pointers: PointerCache) -> (ScannedStep, JSONPatch)? {
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
    guard base[range(.label).lowerBound] == UInt8(ascii: "\"") else { return nil }
    var text = ""
    if labels {
      guard let decoded = labelText() else { return nil }
      text = decoded
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

  /// The pointers of recent patches, by their text: a trace's patches name few paths, and
  /// parsing one costs more than finding it. It also holds the room a scanner needs for keys,
  /// so that one thread's lines share it.
  final class PointerCache {
    var texts: [[UInt8]] = []
    var pointers: [JSONPointer] = []
    var next = 0
    /// Room for every key a scan notes at once: 32 per object, 64 objects deep.
    let keys = UnsafeMutablePointer<(start: Int, end: Int)>.allocate(
      capacity: StepLineScanner.maximumKeysPerObject * StepLineScanner.maximumDepth)

    /// The shapes of lines read in full, to read lines of the same shape by comparing bytes.
    let shapes = StepLineShapes()
    /// Where each operation's value is in the line the patch was last read from.
    var operationValues: [Range<Int>?] = []
    /// How many numbers learning shapes has looked up among a line's holes: the tests keep it
    /// within a shape's holes per line, whatever the patch.
    var holeLookups = 0

    init() {}

    deinit { keys.deallocate() }

    /// Actions written as objects that a scan checked, with how many values each holds: a
    /// trace's actions repeat, and comparing bytes costs less than checking them.
    var actions: [(bytes: [UInt8], values: Int)] = []
    var nextAction = 0

    /// The length and value count of a checked action that the bytes at `start` begin with.
    /// An object ends at its closing brace, so one that the bytes begin with is the whole value.
    func knownAction(at start: UnsafePointer<UInt8>, _ available: Int)
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

    func remember(action: UnsafeBufferPointer<UInt8>, values: Int) {
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
