import Testing

@testable import Recorder

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
