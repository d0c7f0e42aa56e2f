import Testing

@testable import TraceJSON

@Suite("JSON Patch serialization")
struct JSONPatchSerializationTests {
  static let patches: [JSONPatch] = [
    JSONPatch(),
    JSONPatch([
      .test(path: JSONPointer(tokens: ["todos", "2", "isComplete"]), value: false),
      .replace(path: JSONPointer(tokens: ["todos", "2", "isComplete"]), value: true),
    ]),
    JSONPatch([
      .add(path: JSONPointer(tokens: ["a/b", "m~n", "q\"u\\o\nte"]), value: ["x": [1, nil, "é"]]),
      .test(path: JSONPointer(tokens: [""]), value: "old"),
      .remove(path: JSONPointer(tokens: [""])),
      .move(from: JSONPointer(tokens: ["from", "0"]), path: JSONPointer(tokens: ["to", "1"])),
      .copy(from: JSONPointer(), path: JSONPointer(tokens: ["\u{01}"])),
      .replace(path: JSONPointer(), value: 1.5),
    ]),
    // Paths written once and copied for the next operation at the same path: escaped ones,
    // the root, and a `move` to the path just tested.
    JSONPatch([
      .test(path: JSONPointer(tokens: ["a/b", "q\"u"]), value: 1),
      .replace(path: JSONPointer(tokens: ["a/b", "q\"u"]), value: 2),
      .test(path: JSONPointer(tokens: ["a/b", "q\"u", "x"]), value: 3),
      .remove(path: JSONPointer(tokens: ["a/b", "q\"u", "x"])),
      .test(path: JSONPointer(), value: [1]),
      .replace(path: JSONPointer(), value: [2]),
      .test(path: JSONPointer(tokens: ["to", "1"]), value: "t"),
      .move(from: JSONPointer(tokens: ["from", "0"]), path: JSONPointer(tokens: ["to", "1"])),
      .add(path: JSONPointer(tokens: ["to", "1"]), value: nil),
    ]),
  ]

  @Test(
    "Writing a patch straight to bytes gives the bytes of its JSON form, escapes included",
    arguments: patches
  )
  func directBytesMatchJSONForm(patch: JSONPatch) throws {
    var direct: [UInt8] = Array("prefix:".utf8)
    patch.serialize(into: &direct)
    var viaJSON: [UInt8] = Array("prefix:".utf8)
    patch.json.serialize(into: &viaJSON)
    #expect(String(decoding: direct, as: UTF8.self) == String(decoding: viaJSON, as: UTF8.self))
    let parsed = try JSONPatch(json: JSONValue(parsing: Array(direct.dropFirst(7))))
    #expect(parsed == patch)
  }
}
