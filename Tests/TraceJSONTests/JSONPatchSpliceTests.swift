import Testing

@testable import TraceJSON

/// The `splice` extension: its text form, application, failures and inversion.
@Suite("JSON Patch splice")
struct JSONPatchSpliceTests {
  static let text = #"[{"op":"splice","path":"/t","offset":3,"old":"ü","value":"ue\n"}]"#

  @Test("a splice reads, writes and applies at a UTF-8 byte offset, and inverts")
  func roundTrip() throws {
    let patch = try JSONPatch(json: JSONValue(parsing: Self.text))
    var bytes: [UInt8] = []
    patch.serialize(into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == Self.text)
    #expect(patch.json.jsonString == Self.text)
    let before: JSONValue = ["t": "abcüd"]
    let after = try patch.apply(to: before)
    #expect(after == ["t": "abcue\nd"])
    #expect(try patch.inverted().apply(to: after) == before)
  }

  @Test("a splice whose old text is not there, or cuts a character, fails like a test")
  func failures() throws {
    let patch = try JSONPatch(json: JSONValue(parsing: Self.text))
    for document: JSONValue in [["t": "abcxd"], ["t": "ab"], ["t": 3], ["u": "abcüd"]] {
      #expect(throws: JSONPatchError.self) { try patch.apply(to: document) }
    }
    // Offset 4 is inside "ü" (two bytes from offset 3).
    let inside = try JSONPatch(
      json: JSONValue(parsing: #"[{"op":"splice","path":"/t","offset":4,"old":"","value":"x"}]"#))
    #expect(throws: JSONPatchError.self) { try inside.apply(to: ["t": "abcüd"]) }
    for bad in [
      #"[{"op":"splice","path":"/t","offset":-1,"old":"","value":"x"}]"#,
      #"[{"op":"splice","path":"/t","old":"","value":"x"}]"#,
      #"[{"op":"splice","path":"/t","offset":0,"value":"x"}]"#,
      #"[{"op":"splice","path":"/t","offset":0,"old":"","value":1}]"#,
    ] {
      #expect(throws: JSONPatchError.self) { try JSONPatch(json: JSONValue(parsing: bad)) }
    }
  }

  @Test("diff splices only long strings that keep most of their text, and only when asked")
  func diffChoosesSplice() {
    let long = String(repeating: "é", count: 600)  // 1,200 bytes
    let edited = String(long.prefix(300)) + "x" + String(long.dropFirst(300))
    let old: JSONValue = ["t": .string(long)]
    let new: JSONValue = ["t": .string(edited)]
    #expect(JSONPatch.diff(from: old, to: new, splicingStrings: true).operations == [
      .splice(path: JSONPointer("/t")!, offset: 600, old: "", new: "x")
    ])
    #expect(!JSONPatch.diff(from: old, to: new).hasSplice)
    let short: JSONValue = ["t": "abc"]
    #expect(!JSONPatch.diff(from: short, to: ["t": "abd"], splicingStrings: true).hasSplice)
    let rewritten: JSONValue = ["t": .string(String(repeating: "z", count: 1_200))]
    #expect(!JSONPatch.diff(from: old, to: rewritten, splicingStrings: true).hasSplice)
  }
}
