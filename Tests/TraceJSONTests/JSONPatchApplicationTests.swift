import Testing

@testable import TraceJSON

@Suite("JSON Patch: reading and applying")
struct JSONPatchApplicationTests {
  static let document: JSONValue = [
    "list": ["a", "b", "c"],
    "object": ["x": 1, "nested": ["y": 2]],
    "scalar": "s",
  ]

  /// Patches that must fail, each with the reason the RFC (or common sense) gives.
  static let hostile: [(patch: String, reason: JSONPatchError.Reason)] = [
    (#"[{"op":"add","path":"/list/4","value":0}]"#, .indexOutOfRange(index: 4, count: 3)),
    (#"[{"op":"add","path":"/list/01","value":0}]"#, .invalidArrayIndex("01")),
    (#"[{"op":"add","path":"/list/-1","value":0}]"#, .invalidArrayIndex("-1")),
    (
      #"[{"op":"add","path":"/list/99999999999999999999","value":0}]"#,
      .invalidArrayIndex("99999999999999999999")
    ),
    (#"[{"op":"remove","path":"/list/3"}]"#, .indexOutOfRange(index: 3, count: 3)),
    (#"[{"op":"remove","path":"/list/-"}]"#, .pathNotFound),
    (#"[{"op":"remove","path":"/list/00"}]"#, .invalidArrayIndex("00")),
    (#"[{"op":"remove","path":"/missing"}]"#, .pathNotFound),
    (#"[{"op":"remove","path":""}]"#, .cannotRemoveRoot),
    (#"[{"op":"replace","path":"/missing","value":1}]"#, .pathNotFound),
    (#"[{"op":"replace","path":"/list/-","value":1}]"#, .pathNotFound),
    (#"[{"op":"add","path":"/scalar/x","value":1}]"#, .parentNotAContainer("string")),
    (#"[{"op":"add","path":"/missing/x/y","value":1}]"#, .parentNotFound),
    (#"[{"op":"move","from":"/object","path":"/object/nested/z"}]"#, .moveIntoOwnChild),
    (#"[{"op":"move","from":"/missing","path":"/x"}]"#, .fromNotFound),
    (#"[{"op":"move","from":"/missing","path":"/missing"}]"#, .fromNotFound),
    (#"[{"op":"copy","from":"/list/5","path":"/x"}]"#, .fromNotFound),
    (#"[{"op":"test","path":"/list/7","value":1}]"#, .testFailed(expected: 1, actual: nil)),
  ]

  @Test("Bad operations fail with a precise reason, never a crash")
  func hostilePatches() throws {
    for (text, reason) in Self.hostile {
      let patch = try JSONPatch(json: json(text))
      let error = #expect(throws: JSONPatchError.self, "\(text)") {
        try patch.apply(to: Self.document)
      }
      #expect(error?.reason == reason, "\(text)")
    }
  }

  @Test("Malformed patch documents are rejected when read")
  func malformedDocuments() throws {
    let cases: [(String, String)] = [
      (#"{"op":"add"}"#, "a JSON Patch must be an array of operations"),
      (#"[1]"#, "operation 0: malformed operation: an operation must be an object"),
      (#"[{"path":"/a"}]"#, #"operation 0: malformed operation: missing "op""#),
      (#"[{"op":7,"path":"/a"}]"#, #"operation 0: malformed operation: "op" must be a string"#),
      (
        #"[{"op":"jump","path":"/a"}]"#,
        #"operation 0 (jump /a): malformed operation: unknown op "jump""#
      ),
      (
        #"[{"op":"add","path":"/a"}]"#,
        #"operation 0 (add /a): malformed operation: missing "value""#
      ),
      (#"[{"op":"remove"}]"#, #"operation 0 (remove): malformed operation: missing "path""#),
      (
        #"[{"op":"move","path":"/a"}]"#,
        #"operation 0 (move /a): malformed operation: missing "from""#
      ),
      (
        #"[{"op":"remove","path":"a"}]"#,
        #"operation 0 (remove a): malformed operation: "path" is not a valid JSON pointer: "a""#
      ),
      (
        #"[{"op":"test","path":"/~2","value":1}]"#,
        #"operation 0 (test /~2): malformed operation: "path" is not a valid JSON pointer: "/~2""#
      ),
      (
        #"[{"op":"copy","from":5,"path":"/a"}]"#,
        #"operation 0 (copy /a): malformed operation: "from" must be a string"#
      ),
    ]
    for (text, message) in cases {
      let error = #expect(throws: JSONPatchError.self, "\(text)") {
        try JSONPatch(json: json(text))
      }
      #expect(error?.description == message)
    }
  }

  @Test("Application is atomic: a late failure leaves the input untouched")
  func atomic() throws {
    var document = Self.document
    let patch = JSONPatch([
      .remove(path: JSONPointer("/list/0")!),
      .add(path: JSONPointer("/new")!, value: true),
      .test(path: JSONPointer("/scalar")!, value: "not s"),
    ])
    #expect(throws: JSONPatchError.self) { document = try patch.apply(to: document) }
    #expect(document == Self.document)
    #expect(document["list"] == ["a", "b", "c"])
  }

  @Test("Operations apply in sequence, each seeing the previous one's result")
  func sequence() throws {
    let patch = JSONPatch([
      .add(path: JSONPointer("/list/-")!, value: "d"),
      .move(from: JSONPointer("/list/0")!, path: JSONPointer("/list/-")!),
      .copy(from: JSONPointer("/object/nested")!, path: JSONPointer("/copied")!),
      .replace(path: JSONPointer("/copied/y")!, value: 3),
      .remove(path: JSONPointer("/object/x")!),
      .add(path: JSONPointer("")!, value: ["root": ["list": ["b"]]]),
      .add(path: JSONPointer("/root/list/0")!, value: "first"),
    ])
    #expect(try patch.apply(to: Self.document) == ["root": ["list": ["first", "b"]]])

    let partial = JSONPatch(Array(patch.operations.prefix(5)))
    #expect(
      try partial.apply(to: Self.document) == [
        "list": ["b", "c", "d", "a"],
        "object": ["nested": ["y": 2]],
        "scalar": "s",
        "copied": ["y": 3],
      ])
  }

  @Test("Applying in place changes a big array where it lies, without copying it")
  func inPlaceDoesNotCopy() throws {
    // A recorder applies each step's patch to the state it keeps; copying a 10,000-element
    // array to change one member made every step cost as much as the whole state.
    var document: JSONValue = [
      "todos": .array((0..<10_000).map { ["id": .integer(Int64($0)), "done": false] })
    ]
    func storage(_ document: JSONValue) -> UnsafeRawPointer? {
      guard case .array(let todos) = document["todos"] else { return nil }
      return todos.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
    let before = try #require(storage(document))
    let patch = JSONPatch([
      .replace(path: JSONPointer("/todos/5/done")!, value: true),
      .add(path: JSONPointer("/todos/6/note")!, value: "x"),
      .remove(path: JSONPointer("/todos/7/done")!),
    ])
    try patch.apply(to: &document)
    #expect(storage(document) == before)
    #expect(document["todos"]?[5]?["done"] == true)
    #expect(document["todos"]?[6]?["note"] == "x")
    #expect(document["todos"]?[7]?["done"] == nil)
  }

  @Test("add to an existing member replaces it; move to itself is a no-op")
  func addReplacesAndSelfMove() throws {
    let patch = JSONPatch([
      .add(path: JSONPointer("/scalar")!, value: 1),
      .move(from: JSONPointer("/object")!, path: JSONPointer("/object")!),
    ])
    let result = try patch.apply(to: Self.document)
    #expect(result["scalar"] == 1)
    #expect(result["object"] == Self.document["object"])
    #expect(result.objectValue?.keys == ["list", "object", "scalar"])
  }

  @Test("The JSON form round-trips and writes members in RFC order")
  func jsonForm() throws {
    let patch = JSONPatch([
      .add(path: JSONPointer("/a~1b")!, value: [1, 2]),
      .remove(path: JSONPointer("/x")!),
      .replace(path: JSONPointer("")!, value: nil),
      .move(from: JSONPointer("/a")!, path: JSONPointer("/b")!),
      .copy(from: JSONPointer("/c")!, path: JSONPointer("/d")!),
      .test(path: JSONPointer("/e")!, value: "f"),
    ])
    let expected = #"""
      [{"op":"add","path":"/a~1b","value":[1,2]},{"op":"remove","path":"/x"},\#
      {"op":"replace","path":"","value":null},{"op":"move","from":"/a","path":"/b"},\#
      {"op":"copy","from":"/c","path":"/d"},{"op":"test","path":"/e","value":"f"}]
      """#
    #expect(patch.json.jsonString == expected)
    #expect(try JSONPatch(json: json(expected)) == patch)
    let viaCodable = try JSONValueDecoder().decode(
      JSONPatch.self, from: JSONValueEncoder().encode(patch))
    #expect(viaCodable == patch)
  }
}
