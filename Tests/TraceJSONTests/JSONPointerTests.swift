import Testing

@testable import TraceJSON

@Suite("JSON Pointer (RFC 6901)")
struct JSONPointerTests {
  /// The example document of RFC 6901 section 5.
  static let document: JSONValue = [
    "foo": ["bar", "baz"],
    "": 0,
    "a/b": 1,
    "c%d": 2,
    "e^f": 3,
    "g|h": 4,
    "i\\j": 5,
    "k\"l": 6,
    " ": 7,
    "m~n": 8,
  ]

  static let section5: [(pointer: String, value: JSONValue)] = [
    ("", document),
    ("/foo", ["bar", "baz"]),
    ("/foo/0", "bar"),
    ("/", 0),
    ("/a~1b", 1),
    ("/c%d", 2),
    ("/e^f", 3),
    ("/g|h", 4),
    ("/i\\j", 5),
    ("/k\"l", 6),
    ("/ ", 7),
    ("/m~0n", 8),
  ]

  @Test("Every RFC 6901 section 5 pointer resolves to the RFC's value")
  func section5Examples() throws {
    for (text, expected) in Self.section5 {
      let pointer = try #require(JSONPointer(text), "\(text)")
      #expect(pointer.resolve(in: Self.document) == expected, "\(text)")
    }
  }

  @Test("Text form round-trips, escaping ~ as ~0 and / as ~1")
  func textRoundTrip() throws {
    for (text, _) in Self.section5 {
      #expect(JSONPointer(text)?.description == text)
    }
    let pointer = JSONPointer(tokens: ["a/b", "m~n", "~1", "/~", ""])
    #expect(pointer.description == "/a~1b/m~0n/~01/~1~0/")
    #expect(JSONPointer(pointer.description) == pointer)
  }

  @Test("Unescaping is a single pass: ~01 is ~1, never /")
  func escapeOrdering() throws {
    #expect(JSONPointer("/~01")?.tokens == ["~1"])
    #expect(JSONPointer("/~10")?.tokens == ["/0"])
    #expect(JSONPointer("/~0~1")?.tokens == ["~/"])
  }

  @Test("Malformed pointers are rejected: no leading slash, bad ~ escapes")
  func malformed() {
    for text in ["foo", "#/foo", "/~", "/~2", "/a~", "/~a", " /a"] {
      #expect(JSONPointer(text) == nil, "\(text)")
    }
  }

  @Test("Tokens, parent, last token, appending and prefixes")
  func structure() throws {
    let pointer = try #require(JSONPointer("/todos/2/title"))
    #expect(pointer.tokens == ["todos", "2", "title"])
    #expect(pointer.lastToken == "title")
    #expect(pointer.parent?.description == "/todos/2")
    #expect(pointer.parent?.parent?.parent == JSONPointer.root)
    #expect(JSONPointer.root.parent == nil)
    #expect(JSONPointer.root.lastToken == nil)
    #expect(JSONPointer.root.isRoot)
    #expect(JSONPointer.root.appending("a/b").appending(index: 3).description == "/a~1b/3")
    #expect(pointer.parent!.isProperPrefix(of: pointer))
    #expect(!pointer.isProperPrefix(of: pointer))
    #expect(JSONPointer.root.isProperPrefix(of: pointer))
    #expect(!JSONPointer("/todo")!.isProperPrefix(of: pointer))
  }

  @Test("Array indices: decimal without leading zeros; '-' and others are not indices")
  func arrayIndices() {
    #expect(JSONPointer.arrayIndex("0") == 0)
    #expect(JSONPointer.arrayIndex("10") == 10)
    let invalid = ["", "-", "01", "00", "+1", "-1", "1.0", "1e2", " 1", "a", "99999999999999999999"]
    for token in invalid {
      #expect(JSONPointer.arrayIndex(token) == nil, "\(token)")
    }
  }

  @Test("Resolving a missing member, bad index or scalar parent gives nil")
  func missing() throws {
    let document: JSONValue = ["list": [1, 2], "scalar": 3]
    for text in ["/nope", "/list/2", "/list/-", "/list/01", "/scalar/x", "/list/0/x"] {
      #expect(JSONPointer(text)!.resolve(in: document) == nil, "\(text)")
    }
  }

  @Test("Codable: a pointer encodes as its text and rejects invalid text")
  func codable() throws {
    let pointer = JSONPointer(tokens: ["a/b", "0"])
    let encoded = try JSONValueEncoder().encode(pointer)
    #expect(encoded == "/a~1b/0")
    #expect(try JSONValueDecoder().decode(JSONPointer.self, from: encoded) == pointer)
    #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(JSONPointer.self, from: "no-slash")
    }
  }
}
