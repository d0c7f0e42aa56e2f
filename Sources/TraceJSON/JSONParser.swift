/// A strict RFC 8259 parser from UTF-8 bytes to `JSONValue`.
///
/// It never traps on bad input: every problem is a `JSONParseError` with a byte offset. Nesting
/// is limited (512 levels by default), strings must be valid UTF-8 without raw control
/// characters, duplicate object keys are rejected (RFC 8259 leaves them undefined and RFC 6902
/// §A.13 treats them as an error), and a `\u` escape of an unpaired surrogate decodes to U+FFFD,
/// since a Swift string cannot hold one. Integers that fit `Int64` (or, if positive, `UInt64`)
/// become integers; every other number becomes a double, and one beyond `Double`'s range is an
/// error. A parse may also limit how many values the text holds, counting every array element
/// and object member, so that a short line of `[1,1,1,…]` fails before it costs gigabytes.
struct JSONParser {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let maximumDepth: Int
  private let maximumValueCount: Int
  private var position = 0
  private var depth = 0
  /// Values still allowed: counts down, so the check is one comparison per value.
  private var valuesLeft: Int
  /// Reused buffer for strings that contain escapes.
  private var scratch: [UInt8] = []

  init(
    bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONValue.defaultMaximumDepth,
    maximumValueCount: Int = .max
  ) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
    self.maximumValueCount = maximumValueCount
    valuesLeft = maximumValueCount
  }

  /// Parses the whole input as one JSON text, allowing only whitespace around the value.
  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    if position < bytes.count {
      throw JSONParseError(offset: position, reason: "unexpected data after the JSON value")
    }
    return value
  }

  // MARK: - Values

  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard position < bytes.count else { throw failure("expected a JSON value") }
    valuesLeft -= 1
    if valuesLeft < 0 {
      throw failure("more than \(maximumValueCount) values (array elements, members, scalars)")
    }
    switch bytes[position] {
    case UInt8(ascii: "\""):
      return .string(try parseString())
    case UInt8(ascii: "{"):
      return try parseObject()
    case UInt8(ascii: "["):
      return try parseArray()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    default:
      throw failure("expected a JSON value")
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let length = literal.utf8CodeUnitCount
    let start = position
    let matches = literal.withUTF8Buffer { expected in
      guard bytes.count - start >= length else { return false }
      for offset in 0..<length where bytes[start + offset] != expected[offset] {
        return false
      }
      return true
    }
    guard matches else {
      throw JSONParseError(offset: start, reason: "invalid literal, expected '\(literal)'")
    }
    position += length
  }

  private mutating func enterContainer() throws(JSONParseError) {
    depth += 1
    if depth > maximumDepth {
      throw JSONParseError(
        offset: position, reason: "nesting deeper than \(maximumDepth) levels")
    }
    position += 1
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    defer { depth -= 1 }
    var elements: [JSONValue] = []
    skipWhitespace()
    if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard position < bytes.count else { throw failure("expected ',' or ']'") }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
      case UInt8(ascii: "]"):
        position += 1
        return .array(elements)
      default:
        throw failure("expected ',' or ']'")
      }
    }
  }

  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    defer { depth -= 1 }
    skipWhitespace()
    if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(JSONObject())
    }
    // Room for a few members up front: most objects are small, and regrowing costs more.
    var object = JSONObject(minimumCapacity: 4)
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw failure("expected a string key")
      }
      let keyStart = position
      let key = try parseString()
      if object.contains(key: key) {
        throw JSONParseError(offset: keyStart, reason: "duplicate key \(JSONValue.string(key))")
      }
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
        throw failure("expected ':'")
      }
      position += 1
      skipWhitespace()
      object.appendNew(key: key, value: try parseValue())
      skipWhitespace()
      guard position < bytes.count else { throw failure("expected ',' or '}'") }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
      case UInt8(ascii: "}"):
        position += 1
        return .object(object)
      default:
        throw failure("expected ',' or '}'")
      }
    }
  }

  // MARK: - Strings

  /// Parses a string starting at its opening quote.
  private mutating func parseString() throws(JSONParseError) -> String {
    let openingQuote = position
    position += 1
    let start = position
    let count = bytes.count
    while true {
      skipPlainASCII()
      guard position < count else {
        throw JSONParseError(offset: openingQuote, reason: "unterminated string")
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let result = string(from: start, to: position)
        position += 1
        return result
      } else if byte == UInt8(ascii: "\\") {
        return try parseEscapedString(openingQuote: openingQuote, start: start)
      } else if byte < 0x20 {
        throw failure("unescaped control character in string")
      } else if byte >= 0x80 {
        try skipMultibyteScalar()
      } else {
        position += 1
      }
    }
  }

  /// Advances past bytes that need no attention in a string: ASCII other than `"`, `\` and
  /// control characters. Eight bytes at a time while it can.
  @inline(__always)
  private mutating func skipPlainASCII() {
    let count = bytes.count
    guard let base = bytes.baseAddress else { return }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while count - position >= 8 {
      let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let special =
        ((quote &- ones) & ~quote)
        | ((backslash &- ones) & ~backslash)
        | (word &- ones &* 0x20)
        | word
      if special & highs != 0 { break }
      position += 8
    }
    while position < count {
      let byte = bytes[position]
      if byte < 0x20 || byte >= 0x80 { return }
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return }
      position += 1
    }
  }

  /// Validates and skips one multi-byte UTF-8 sequence starting at `position`.
  private mutating func skipMultibyteScalar() throws(JSONParseError) {
    let lead = bytes[position]
    let length: Int
    var secondLow: UInt8 = 0x80
    var secondHigh: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; secondLow = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; secondHigh = 0x9F
    case 0xF0: length = 4; secondLow = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; secondHigh = 0x8F
    default: throw failure("invalid UTF-8 in string")
    }
    guard bytes.count - position >= length else { throw failure("invalid UTF-8 in string") }
    let second = bytes[position + 1]
    guard second >= secondLow && second <= secondHigh else {
      throw failure("invalid UTF-8 in string")
    }
    var offset = 2
    while offset < length {
      guard bytes[position + offset] & 0xC0 == 0x80 else {
        throw failure("invalid UTF-8 in string")
      }
      offset += 1
    }
    position += length
  }

  /// Finishes a string that contains escapes, decoding them into `scratch`.
  private mutating func parseEscapedString(
    openingQuote: Int,
    start: Int
  ) throws(JSONParseError) -> String {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
    let count = bytes.count
    while true {
      let runStart = position
      skipPlainASCII()
      guard position < count else {
        throw JSONParseError(offset: openingQuote, reason: "unterminated string")
      }
      var byte = bytes[position]
      while byte >= 0x80 {
        try skipMultibyteScalar()
        skipPlainASCII()
        guard position < count else {
          throw JSONParseError(offset: openingQuote, reason: "unterminated string")
        }
        byte = bytes[position]
      }
      if runStart < position {
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
      }
      if byte == UInt8(ascii: "\"") {
        position += 1
        return String(decoding: scratch, as: UTF8.self)
      } else if byte == UInt8(ascii: "\\") {
        try parseEscape()
      } else {
        throw failure("unescaped control character in string")
      }
    }
  }

  /// Decodes one escape sequence starting at its backslash, appending the result to `scratch`.
  private mutating func parseEscape() throws(JSONParseError) {
    let escapeStart = position
    guard position + 1 < bytes.count else {
      throw failure("unterminated escape sequence")
    }
    let kind = bytes[position + 1]
    position += 2
    switch kind {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
      scratch.append(kind)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try parseHexQuad(escapeStart: escapeStart)
      switch unit {
      case 0xD800...0xDBFF:
        // A high surrogate counts only when a low surrogate escape follows it directly.
        if let low = peekLowSurrogateEscape() {
          position += 6
          let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
          appendScalar(scalar)
        } else {
          appendScalar(0xFFFD)
        }
      case 0xDC00...0xDFFF:
        appendScalar(0xFFFD)
      default:
        appendScalar(UInt32(unit))
      }
    default:
      throw JSONParseError(offset: escapeStart, reason: "invalid escape sequence")
    }
  }

  private mutating func parseHexQuad(escapeStart: Int) throws(JSONParseError) -> UInt16 {
    guard bytes.count - position >= 4 else {
      throw JSONParseError(offset: escapeStart, reason: "invalid \\u escape sequence")
    }
    var unit: UInt16 = 0
    for offset in 0..<4 {
      guard let digit = Self.hexValue(bytes[position + offset]) else {
        throw JSONParseError(offset: escapeStart, reason: "invalid \\u escape sequence")
      }
      unit = unit << 4 | UInt16(digit)
    }
    position += 4
    return unit
  }

  /// The low surrogate of a `\uDC00`…`\uDFFF` escape at `position`, without consuming it.
  private func peekLowSurrogateEscape() -> UInt16? {
    guard bytes.count - position >= 6,
      bytes[position] == UInt8(ascii: "\\"),
      bytes[position + 1] == UInt8(ascii: "u")
    else { return nil }
    var unit: UInt16 = 0
    for offset in 2..<6 {
      guard let digit = Self.hexValue(bytes[position + offset]) else { return nil }
      unit = unit << 4 | UInt16(digit)
    }
    return (0xDC00...0xDFFF).contains(unit) ? unit : nil
  }

  @inline(__always)
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
    default: nil
    }
  }

  private mutating func appendScalar(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  // MARK: - Numbers

  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = position
    let count = bytes.count
    let negative = bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }

    // Integer part. `significand` collects up to 19 significant digits of the whole number.
    guard position < count, Self.isDigit(bytes[position]) else {
      throw failure("expected a digit")
    }
    var significand: UInt64 = 0
    var significantDigits = 0
    // Set once a digit could not be added to `significand`: the fast paths no longer apply.
    var truncated = false
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < count && Self.isDigit(bytes[position]) {
        throw JSONParseError(offset: start, reason: "leading zeros are not allowed")
      }
    } else {
      while position < count, Self.isDigit(bytes[position]) {
        let digit = UInt64(bytes[position] &- UInt8(ascii: "0"))
        let (times10, overflow1) = significand.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(digit)
        if overflow1 || overflow2 {
          truncated = true
        } else {
          significand = sum
          significantDigits += 1
        }
        position += 1
      }
    }

    var isInteger = true
    var fractionDigits = 0
    if position < count && bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard position < count, Self.isDigit(bytes[position]) else {
        throw failure("expected a digit after '.'")
      }
      while position < count, Self.isDigit(bytes[position]) {
        if significantDigits < 19 && !truncated {
          let digit = UInt64(bytes[position] &- UInt8(ascii: "0"))
          if significand != 0 || digit != 0 { significantDigits += 1 }
          significand = significand &* 10 &+ digit
          fractionDigits += 1
        } else {
          truncated = true
        }
        position += 1
      }
    }

    var exponent = 0
    if position < count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      var exponentNegative = false
      if position < count {
        let sign = bytes[position]
        if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
          exponentNegative = sign == UInt8(ascii: "-")
          position += 1
        }
      }
      guard position < count, Self.isDigit(bytes[position]) else {
        throw failure("expected a digit in the exponent")
      }
      while position < count, Self.isDigit(bytes[position]) {
        if exponent < 100_000 {
          exponent = exponent * 10 + Int(bytes[position] &- UInt8(ascii: "0"))
        }
        position += 1
      }
      if exponentNegative { exponent = -exponent }
    }

    if isInteger && !truncated {
      if !negative { return .number(significand) }
      if significand <= UInt64(Int64.max) { return .integer(-Int64(significand)) }
      if significand == UInt64(Int64.max) + 1 { return .integer(.min) }
    }

    // Exact fast path: the significand and the power of ten are both exact doubles.
    let scale = exponent - fractionDigits
    if !truncated && significand < (1 << 53) && (-22...22).contains(scale) {
      var value = Double(significand)
      if scale >= 0 {
        value *= Self.exactPowersOfTen[scale]
      } else {
        value /= Self.exactPowersOfTen[-scale]
      }
      return .double(negative ? -value : value)
    }

    let text = string(from: start, to: position)
    guard let value = Double(text), value.isFinite else {
      throw JSONParseError(offset: start, reason: "number out of range")
    }
    return .double(value)
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  // MARK: - Helpers

  /// The input bytes `start..<end`, already validated, as a string.
  @inline(__always)
  private func string(from start: Int, to end: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
        position += 1
      default:
        return
      }
    }
  }

  /// An error at the current position; at the end of input it says so.
  private func failure(_ reason: String) -> JSONParseError {
    if position >= bytes.count {
      return JSONParseError(offset: position, reason: "unexpected end of input, \(reason)")
    }
    return JSONParseError(offset: position, reason: reason)
  }
}
