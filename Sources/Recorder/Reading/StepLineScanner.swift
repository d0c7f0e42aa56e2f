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
}
