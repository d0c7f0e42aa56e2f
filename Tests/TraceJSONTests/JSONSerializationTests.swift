import Testing

@testable import TraceJSON

@Suite("JSON serialization")
struct JSONSerializationTests {
  @Test("Compact output: no spaces, members in stored order")
  func compact() {
    let value: JSONValue = ["b": [1, -2, true, false, nil], "a": ["": "x"], "c": []]
    #expect(value.jsonString == #"{"b":[1,-2,true,false,null],"a":{"":"x"},"c":[]}"#)
    #expect(value.description == value.jsonString)
    var buffer: [UInt8] = Array("prefix:".utf8)
    value.serialize(into: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "prefix:" + value.jsonString)
  }

  @Test("Strings escape quote, backslash and control characters; / and Unicode pass through")
  func escaping() {
    let cases: [(String, String)] = [
      ("plain", #""plain""#),
      ("a\"b", #""a\"b""#),
      ("a\\b", #""a\\b""#),
      ("a/b", #""a/b""#),
      ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#),
      ("\u{00}\u{01}\u{1F}", #""\u0000\u0001\u001f""#),
      ("\u{7F}", "\"\u{7F}\""),
      ("é😀\u{2028}", "\"é😀\u{2028}\""),
      ("long run with one \" in the middle of it", #""long run with one \" in the middle of it""#),
    ]
    for (string, expected) in cases {
      #expect(JSONValue.string(string).jsonString == expected)
    }
  }

  @Test("Doubles use the shortest round-trip form; integral ones keep a fraction or exponent")
  func doubles() {
    let cases: [(Double, String)] = [
      (1, "1.0"),
      (-0.0, "-0.0"),
      (0.1, "0.1"),
      (123_456.789, "123456.789"),
      (1e16, "1e+16"),
      (9_007_199_254_740_992, "9007199254740992.0"),
      (1e-7, "1e-07"),
      (.leastNonzeroMagnitude, "5e-324"),
      (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
      (.nan, #""NaN""#),
      (.infinity, #""Infinity""#),
      (-.infinity, #""-Infinity""#),
    ]
    for (number, expected) in cases {
      #expect(JSONValue.double(number).jsonString == expected)
    }
  }

  @Test("Whole numbers of microseconds print as `description` prints them, digit for digit")
  func microsecondDoubles() {
    // Seeded, so that a failure repeats: times and values in every decade from 1e-4 to 1e9.
    var seed: UInt64 = 20_261_125
    func next() -> UInt64 {
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      return seed >> 11
    }
    for _ in 0..<200_000 {
      let micros = Int64(next() % 999_999_999_999_999) + 100
      let scale = [1, 10, 1_000, 1_000_000, 1_000_000_000][Int(next() % 5)]
      let value = Double(micros / Int64(scale)) / 1e6 * (next() % 2 == 0 ? 1 : -1)
      #expect(JSONValue.double(value).jsonString == value.description, "\(value)")
    }
    for value in [0.0001, 0.000123, 0.5, 3.14159, 0.1, 123456789.123456, 999999999.999999, 0.00001] {
      #expect(JSONValue.double(value).jsonString == value.description)
    }
  }

  @Test("Integers print exactly at the extremes")
  func integers() {
    #expect(JSONValue.integer(.min).jsonString == "-9223372036854775808")
    #expect(JSONValue.integer(.max).jsonString == "9223372036854775807")
    #expect(JSONValue.integer(0).jsonString == "0")
    #expect(JSONValue.integer(-7).jsonString == "-7")
    #expect(JSONValue.unsignedInteger(.max).jsonString == "18446744073709551615")
  }

  @Test("Pretty printing: two-space indent, stored key order, empty containers inline")
  func pretty() throws {
    let value: JSONValue = ["name": "x", "list": [1, ["k": nil]], "empty": [:], "none": []]
    let expected = """
      {
        "name": "x",
        "list": [
          1,
          {
            "k": null
          }
        ],
        "empty": {},
        "none": []
      }
      """
    #expect(value.prettyPrinted == expected)
    #expect(JSONValue.integer(3).prettyPrinted == "3")
    #expect(try JSONValue(parsing: value.prettyPrinted).isIdentical(to: value))
  }

  @Test("Serialization is deterministic and re-parses to an identical value")
  func roundTrip() throws {
    var random = RandomJSON(seed: 99)
    for _ in 0..<300 {
      let value = random.value(depth: 5)
      let bytes = value.jsonBytes
      #expect(bytes == value.jsonBytes)
      let reparsed = try JSONValue(parsing: bytes)
      #expect(reparsed.isIdentical(to: value), "\(value)")
      #expect(reparsed.jsonBytes == bytes)
    }
  }
}
