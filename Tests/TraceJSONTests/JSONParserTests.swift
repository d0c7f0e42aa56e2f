import Architecture
import Foundation
import Testing

@testable import TraceJSON

@Suite("JSON parser")
struct JSONParserTests {
  /// Parses raw bytes and returns the error's description, or `nil` if it parsed.
  static func parseError(_ bytes: [UInt8], maximumDepth: Int = 512) -> String? {
    do {
      _ = try JSONValue(parsing: bytes, maximumDepth: maximumDepth)
      return nil
    } catch {
      return error.description
    }
  }

  static func parseError(_ text: String) -> String? {
    parseError(Array(text.utf8))
  }

  @Test("Valid documents parse to the expected values")
  func valid() throws {
    let text = """
       {"s": "x", "n": [0, -1, 2.5, 1e2, true, false, null], "o": {"e": {}, "a": []}}\t\r\n
      """
    let expected: JSONValue = [
      "s": "x", "n": [0, -1, 2.5, 100.0, true, false, nil], "o": ["e": [:], "a": []],
    ]
    let value = try JSONValue(parsing: text)
    #expect(value.isIdentical(to: expected))
    #expect(value.objectValue?.keys == ["s", "n", "o"])
    #expect(try JSONValue(parsing: "  7 ") == 7)
    #expect(try JSONValue(parsing: #""top""#) == "top")
  }

  @Test("Every input form gives the same value: String, [UInt8], slices, raw buffers, Data")
  func inputForms() throws {
    let text = #"{"a":[1,"é",{"b":null}]}"#
    let expected = try JSONValue(parsing: text)
    let bytes = Array(text.utf8)
    #expect(try JSONValue(parsing: bytes) == expected)
    #expect(try JSONValue(parsing: Data(bytes)) == expected)
    #expect(try JSONValue(parsing: (Array("xx".utf8) + bytes)[2...]) == expected)
    #expect(try JSONValue(parsing: bytes.lazy.map { $0 }) == expected)
    let fromRaw = bytes.withUnsafeBytes { raw in Result { try JSONValue(parsing: raw) } }
    #expect(try fromRaw.get() == expected)
  }

  @Test("Integers stay exact; larger magnitudes become doubles")
  func integers() throws {
    let cases: [(String, JSONValue)] = [
      ("0", .integer(0)),
      ("-0", .integer(0)),
      ("9223372036854775807", .integer(.max)),
      ("-9223372036854775808", .integer(.min)),
      ("9223372036854775808", .unsignedInteger(9_223_372_036_854_775_808)),
      ("18446744073709551615", .unsignedInteger(.max)),
      ("18446744073709551616", .double(18_446_744_073_709_551_616.0)),
      ("-9223372036854775809", .double(-9_223_372_036_854_775_809.0)),
      ("9007199254740993", .integer(9_007_199_254_740_993)),
    ]
    for (text, expected) in cases {
      #expect(try JSONValue(parsing: text).isIdentical(to: expected), "\(text)")
    }
  }

  @Test("Doubles are correctly rounded, including the slow path")
  func doubles() throws {
    let cases: [(String, Double)] = [
      ("-0.0", -0.0),
      ("0.1", 0.1),
      ("3.14159", 3.14159),
      ("1E+2", 100),
      ("1e-2", 0.01),
      ("0.30000000000000004", 0.30000000000000004),
      ("9007199254740993.0", 9_007_199_254_740_992),
      ("2.2250738585072014e-308", 2.2250738585072014e-308),
      ("4.9406564584124654e-324", .leastNonzeroMagnitude),
      ("1.7976931348623157e308", .greatestFiniteMagnitude),
      ("123456789012345678901234567890", 1.2345678901234568e29),
      ("0.000000000000000000000000000001", 1e-30),
      ("1e-400", 0),
    ]
    for (text, expected) in cases {
      let value = try JSONValue(parsing: text)
      guard case .double(let number) = value else {
        Issue.record("\(text) parsed as \(value)")
        continue
      }
      #expect(number.bitPattern == expected.bitPattern, "\(text) -> \(number)")
    }
  }

  @Test("Random finite doubles read back bit-for-bit from their shortest text")
  func randomDoubles() throws {
    var random = SplitMix64(seed: 2024)
    var checked = 0
    while checked < 5000 {
      let number = Double(bitPattern: random.next())
      guard number.isFinite else { continue }
      let text = "\(number)"
      guard case .double(let parsed) = try JSONValue(parsing: text) else {
        Issue.record("\(text) did not parse as a double")
        return
      }
      #expect(parsed.bitPattern == number.bitPattern, "\(text)")
      checked += 1
    }
  }

  @Test("Malformed numbers are errors with their offset")
  func badNumbers() {
    let cases: [(String, String)] = [
      ("01", "leading zeros are not allowed at byte 0"),
      ("-01", "leading zeros are not allowed at byte 0"),
      ("-", "unexpected end of input, expected a digit at byte 1"),
      ("-a", "expected a digit at byte 1"),
      ("1.", "unexpected end of input, expected a digit after '.' at byte 2"),
      ("1.e5", "expected a digit after '.' at byte 2"),
      ("1e", "unexpected end of input, expected a digit in the exponent at byte 2"),
      ("1e+", "unexpected end of input, expected a digit in the exponent at byte 3"),
      (".5", "expected a JSON value at byte 0"),
      ("+1", "expected a JSON value at byte 0"),
      ("1e400", "number out of range at byte 0"),
      ("[-1e999]", "number out of range at byte 1"),
      ("1.5x", "unexpected data after the JSON value at byte 3"),
      ("NaN", "expected a JSON value at byte 0"),
      ("Infinity", "expected a JSON value at byte 0"),
      ("0x10", "unexpected data after the JSON value at byte 1"),
    ]
    for (text, message) in cases {
      #expect(Self.parseError(text) == message, "\(text)")
    }
  }

  @Test("Escapes decode, surrogate pairs combine, unpaired surrogates become U+FFFD")
  func escapes() throws {
    let cases: [(String, String)] = [
      (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
      (#""\u0041\u00e9\u20AC\u0000""#, "Aé€\u{0}"),
      (#""\ud83d\ude00""#, "😀"),
      (#""x\uD83D\uDE00y""#, "x😀y"),
      (#""\ud83d""#, "\u{FFFD}"),
      (#""\ud83dx""#, "\u{FFFD}x"),
      (#""\ude00""#, "\u{FFFD}"),
      (#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀"),
      (#""\ud83d\u0041""#, "\u{FFFD}A"),
      (#""é\n😀""#, "é\n😀"),
    ]
    for (text, expected) in cases {
      #expect(try JSONValue(parsing: text) == .string(expected), "\(text)")
    }
  }

  @Test("Structural errors report what was expected and where")
  func structuralErrors() {
    let cases: [(String, String)] = [
      ("", "unexpected end of input, expected a JSON value at byte 0"),
      ("   ", "unexpected end of input, expected a JSON value at byte 3"),
      ("[1,2", "unexpected end of input, expected ',' or ']' at byte 4"),
      ("[1,]", "expected a JSON value at byte 3"),
      (#"{"a":1,}"#, "expected a string key at byte 7"),
      (#"{"a" 1}"#, "expected ':' at byte 5"),
      (#"{"a":1 "b":2}"#, "expected ',' or '}' at byte 7"),
      ("{1:2}", "expected a string key at byte 1"),
      ("[true false]", "expected ',' or ']' at byte 6"),
      ("{} {}", "unexpected data after the JSON value at byte 3"),
      (#"{"a":1,"a":2}"#, #"duplicate key "a" at byte 7"#),
      (#"{"x":[1,{"y":"\q"}]}"#, "invalid escape sequence at byte 14"),
      (#""\u12g4""#, #"invalid \u escape sequence at byte 1"#),
      (#""\u12""#, #"invalid \u escape sequence at byte 1"#),
      (#""abc"#, "unterminated string at byte 0"),
      (#""abc\"#, "unterminated escape sequence at byte 4"),
      ("[\"ok\", \"tab\there\"]", "unescaped control character in string at byte 11"),
      ("tru", "invalid literal, expected 'true' at byte 0"),
      ("nulL", "invalid literal, expected 'null' at byte 0"),
      ("\u{0B}1", "expected a JSON value at byte 0"),
      ("\u{FEFF}1", "expected a JSON value at byte 0"),
      ("'a'", "expected a JSON value at byte 0"),
    ]
    for (text, message) in cases {
      #expect(Self.parseError(text) == message, "\(text)")
    }
  }

  @Test("Invalid UTF-8 in strings is reported at the offending byte")
  func invalidUTF8() {
    let quote = UInt8(ascii: "\"")
    let cases: [[UInt8]] = [
      [0xFF],
      [0x80],
      [0xC0, 0xAF],
      [0xC1, 0xBF],
      [0xE0, 0x80, 0xAF],
      [0xED, 0xA0, 0x80],
      [0xF0, 0x80, 0x80, 0xAF],
      [0xF4, 0x90, 0x80, 0x80],
      [0xF5, 0x80, 0x80, 0x80],
      [0xE2, 0x82],
      [0xC3],
    ]
    for sequence in cases {
      let plain = [quote, UInt8(ascii: "a")] + sequence + [quote]
      #expect(Self.parseError(plain) == "invalid UTF-8 in string at byte 2", "\(sequence)")
      let escaped = [quote, UInt8(ascii: "\\"), UInt8(ascii: "n")] + sequence + [quote]
      #expect(Self.parseError(escaped) == "invalid UTF-8 in string at byte 3", "\(sequence)")
    }
    #expect(Self.parseError([0xC3]) == "expected a JSON value at byte 0")
    #expect(Self.parseError([quote, 0xC3, 0xA9, quote]) == nil)
  }

  @Test("Nesting beyond the depth limit is an error, not a stack overflow")
  func depth() throws {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(Self.parseError(deep) == "nesting deeper than 512 levels at byte 512")
    let deepObjects = String(repeating: #"{"a":"#, count: 10_000)
    #expect(Self.parseError(deepObjects) == "nesting deeper than 512 levels at byte 2560")
    let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(Self.parseError(atLimit) == nil)
    let overLimit = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    #expect(Self.parseError(overLimit) == "nesting deeper than 512 levels at byte 512")
    let shallow = Self.parseError(Array("[[[1]]]".utf8), maximumDepth: 2)
    #expect(shallow == "nesting deeper than 2 levels at byte 2")
  }

  @Test("Every truncation of a valid document is an error inside the input")
  func truncated() throws {
    let text = #"{"id":"E621E1F8","list":[1,-2.5e3,true,null,"é\n😀"],"o":{"k":false}}"#
    let bytes = Array(text.utf8)
    #expect(Self.parseError(bytes) == nil)
    for length in 0..<bytes.count {
      do {
        _ = try JSONValue(parsing: bytes[..<length])
        Issue.record("prefix of length \(length) parsed")
      } catch {
        #expect(error.offset <= length)
      }
    }
  }

  @Test("Random garbage never crashes and errors point inside the input")
  func garbage() {
    var random = SplitMix64(seed: 42)
    let alphabet = Array(#"{}[]",:0123456789-+.eEtrufalsn \\u"#.utf8) + [0x00, 0x80, 0xC3, 0xFF]
    for _ in 0..<5000 {
      let length = Int.random(in: 0...48, using: &random)
      let bytes = (0..<length).map { _ in
        Bool.random(using: &random)
          ? alphabet.randomElement(using: &random)!
          : UInt8.random(in: 0...255, using: &random)
      }
      let value: JSONValue
      do {
        value = try JSONValue(parsing: bytes)
      } catch {
        #expect(error.offset >= 0 && error.offset <= bytes.count)
        continue
      }
      let reparsed = Result { try JSONValue(parsing: value.jsonBytes) }
      #expect((try? reparsed.get())?.isIdentical(to: value) == true)
    }
  }

  @Test("Special characters are found at every position around the 8-byte fast scan")
  func scanBoundaries() throws {
    for length in 0..<34 {
      for position in 0...length {
        let before = String(repeating: "a", count: position)
        let after = String(repeating: "b", count: length - position)
        let escaped = try JSONValue(parsing: "\"\(before)\\\"\(after)\"")
        #expect(escaped == .string(before + "\"" + after))
        let unicode = try JSONValue(parsing: "\"\(before)é\(after)\"")
        #expect(unicode == .string(before + "é" + after))
        let control = Self.parseError("\"\(before)\u{01}\(after)\"")
        #expect(control == "unescaped control character in string at byte \(position + 1)")
        let unterminated = Self.parseError("\"\(before)\(after)")
        #expect(unterminated == "unterminated string at byte 0")
      }
    }
  }

  @Test("A 16 MB string, plain or with escapes, parses intact")
  func largeStrings() throws {
    let chunk = String(repeating: "abcdefgh", count: 125) + "é"
    let plain = String(repeating: chunk, count: 16_000)
    let value = try JSONValue(parsing: "[\"" + plain + "\"]")
    #expect(value[0]?.stringValue == plain)

    let escapedChunk = String(repeating: "abcdefgh", count: 125) + "\\n"
    let escapedText = "\"" + String(repeating: escapedChunk, count: 16_000) + "\""
    let expectedChunk = String(repeating: "abcdefgh", count: 125) + "\n"
    let expected = String(repeating: expectedChunk, count: 16_000)
    #expect(try JSONValue(parsing: escapedText) == .string(expected))
  }
}
