/// Writes `JSONValue`s as UTF-8 JSON text, compact or indented.
///
/// Output is deterministic: object members in stored order, doubles in Swift's shortest
/// round-trip form (integral ones with a trailing `.0` so they read back as doubles), strings
/// escaped per RFC 8259 (`"`, `\`, and control characters; `/` and non-ASCII are written as is).
/// Non-finite doubles, which JSON cannot express, are written as the strings `"NaN"`,
/// `"Infinity"` and `"-Infinity"`, the same form `JSONValueEncoder` uses.
package enum JSONTextWriter {
  private static let hexDigits: StaticString = "0123456789abcdef"

  /// Appends the compact form of `value` to `out`.
  package static func writeCompact(_ value: JSONValue, to out: inout [UInt8]) {
    switch value {
    case .null:
      appendLiteral("null", to: &out)
    case .bool(let flag):
      appendLiteral(flag ? "true" : "false", to: &out)
    case .integer(let number):
      appendInteger(number, to: &out)
    case .unsignedInteger(let number):
      appendUnsigned(number, negative: false, to: &out)
    case .double(let number):
      appendDouble(number, to: &out)
    case .string(let string):
      appendString(string, to: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      var first = true
      for element in elements {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        writeCompact(element, to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let object):
      out.append(UInt8(ascii: "{"))
      var first = true
      for entry in object.entries {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        appendString(entry.key, to: &out)
        out.append(UInt8(ascii: ":"))
        writeCompact(entry.value, to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Appends an indented form of `value` to `out`: two spaces a level, `"key": value`.
  package static func writePretty(_ value: JSONValue, level: Int, to out: inout [UInt8]) {
    switch value {
    case .array(let elements) where !elements.isEmpty:
      out.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        appendNewline(level: level + 1, to: &out)
        writePretty(element, level: level + 1, to: &out)
      }
      appendNewline(level: level, to: &out)
      out.append(UInt8(ascii: "]"))
    case .object(let object) where !object.isEmpty:
      out.append(UInt8(ascii: "{"))
      for (position, entry) in object.entries.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        appendNewline(level: level + 1, to: &out)
        appendString(entry.key, to: &out)
        out.append(UInt8(ascii: ":"))
        out.append(UInt8(ascii: " "))
        writePretty(entry.value, level: level + 1, to: &out)
      }
      appendNewline(level: level, to: &out)
      out.append(UInt8(ascii: "}"))
    default:
      writeCompact(value, to: &out)
    }
  }

  private static func appendNewline(level: Int, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\n"))
    for _ in 0..<(level * 2) {
      out.append(UInt8(ascii: " "))
    }
  }

  @inline(__always)
  private static func appendLiteral(_ literal: StaticString, to out: inout [UInt8]) {
    literal.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  /// Appends the decimal digits of a signed integer.
  package static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
    if number >= 0 {
      appendUnsigned(UInt64(number), negative: false, to: &out)
    } else {
      appendUnsigned(number.magnitude, negative: true, to: &out)
    }
  }

  /// Appends the decimal digits of `magnitude`, preceded by `-` when `negative`.
  package static func appendUnsigned(_ magnitude: UInt64, negative: Bool, to out: inout [UInt8]) {
    if magnitude < 10 && !negative {
      out.append(UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0"))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
      var position = buffer.count
      var remaining = magnitude
      repeat {
        position -= 1
        let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
        buffer[position] = UInt8(truncatingIfNeeded: digit) &+ UInt8(ascii: "0")
        remaining = quotient
      } while remaining != 0
      if negative {
        position -= 1
        buffer[position] = UInt8(ascii: "-")
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position...]))
    }
  }

  /// Appends a double in shortest round-trip form, with `.0` added to integral values.
  package static func appendDouble(_ number: Double, to out: inout [UInt8]) {
    guard number.isFinite else {
      if number.isNaN {
        appendLiteral("\"NaN\"", to: &out)
      } else {
        appendLiteral(number < 0 ? "\"-Infinity\"" : "\"Infinity\"", to: &out)
      }
      return
    }
    // Integral values below 1e15 print as their digits plus ".0", exactly as `description`
    // does, without building a String.
    if number.magnitude < 1e15 && number.rounded(.towardZero) == number {
      if number.sign == .minus { out.append(UInt8(ascii: "-")) }
      appendUnsigned(UInt64(number.magnitude), negative: false, to: &out)
      out.append(UInt8(ascii: "."))
      out.append(UInt8(ascii: "0"))
      return
    }
    // A whole number of microseconds from 1e-4 up (a trace's times) prints as its digits:
    // with at most 15 significant digits they are the shortest that read back as the same
    // double, which is what `description` prints, without its search.
    let magnitude = number.magnitude
    if magnitude >= 1e-4 && magnitude < 1e9 {
      let micros = (magnitude * 1e6).rounded()
      if micros / 1e6 == magnitude {
        let whole = UInt64(micros) / 1_000_000
        var fraction = UInt64(micros) % 1_000_000
        var digits = 6
        while fraction % 10 == 0 && digits > 1 {
          fraction /= 10
          digits -= 1
        }
        if number.sign == .minus { out.append(UInt8(ascii: "-")) }
        appendUnsigned(whole, negative: false, to: &out)
        out.append(UInt8(ascii: "."))
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
          out.append(UInt8(truncatingIfNeeded: fraction / divisor % 10) &+ UInt8(ascii: "0"))
          divisor /= 10
        }
        return
      }
    }
    var text = number.description
    text.withUTF8 { bytes in
      out.append(contentsOf: bytes)
      for byte in bytes where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") {
        return
      }
      out.append(UInt8(ascii: "."))
      out.append(UInt8(ascii: "0"))
    }
  }

  /// Appends `string` as a quoted, escaped JSON string.
  package static func appendString(_ string: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { appendEscaped($0, to: &out) }
    out.append(UInt8(ascii: "\""))
  }

  /// Appends UTF-8 `bytes`, escaping `"`, `\` and control characters.
  package static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    var runStart = 0
    var position = 0
    let count = bytes.count
    while position < count {
      let byte = bytes[position]
      if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
        position += 1
        continue
      }
      if runStart < position {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
      }
      out.append(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
      case 0x0A: out.append(UInt8(ascii: "n"))
      case 0x0D: out.append(UInt8(ascii: "r"))
      case 0x09: out.append(UInt8(ascii: "t"))
      case 0x08: out.append(UInt8(ascii: "b"))
      case 0x0C: out.append(UInt8(ascii: "f"))
      default:
        appendLiteral("u00", to: &out)
        hexDigits.withUTF8Buffer { hex in
          out.append(hex[Int(byte >> 4)])
          out.append(hex[Int(byte & 0x0F)])
        }
      }
      position += 1
      runStart = position
    }
    if runStart < count {
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
    }
  }
}
