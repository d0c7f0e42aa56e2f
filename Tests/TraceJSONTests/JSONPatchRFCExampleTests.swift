import Testing

@testable import TraceJSON

/// RFC 6902 Appendix A, every example, written as data: the document, the patch, and either
/// the expected result or the reason the patch must fail.
@Suite("JSON Patch: RFC 6902 Appendix A examples")
struct JSONPatchRFCExampleTests {
  struct Example: CustomTestStringConvertible, Sendable {
    var name: String
    var document: String
    var patch: String
    var expected: String?
    var error: JSONPatchError.Reason?
    var testDescription: String { name }
  }

  static let successes: [Example] = [
    Example(
      name: "A.1 adding an object member",
      document: #"{ "foo": "bar"}"#,
      patch: #"[ { "op": "add", "path": "/baz", "value": "qux" } ]"#,
      expected: #"{ "baz": "qux", "foo": "bar" }"#),
    Example(
      name: "A.2 adding an array element",
      document: #"{ "foo": [ "bar", "baz" ] }"#,
      patch: #"[ { "op": "add", "path": "/foo/1", "value": "qux" } ]"#,
      expected: #"{ "foo": [ "bar", "qux", "baz" ] }"#),
    Example(
      name: "A.3 removing an object member",
      document: #"{ "baz": "qux", "foo": "bar" }"#,
      patch: #"[ { "op": "remove", "path": "/baz" } ]"#,
      expected: #"{ "foo": "bar" }"#),
    Example(
      name: "A.4 removing an array element",
      document: #"{ "foo": [ "bar", "qux", "baz" ] }"#,
      patch: #"[ { "op": "remove", "path": "/foo/1" } ]"#,
      expected: #"{ "foo": [ "bar", "baz" ] }"#),
    Example(
      name: "A.5 replacing a value",
      document: #"{ "baz": "qux", "foo": "bar" }"#,
      patch: #"[ { "op": "replace", "path": "/baz", "value": "boo" } ]"#,
      expected: #"{ "baz": "boo", "foo": "bar" }"#),
    Example(
      name: "A.6 moving a value",
      document: #"{ "foo": { "bar": "baz", "waldo": "fred" }, "qux": { "corge": "grault" } }"#,
      patch: #"[ { "op": "move", "from": "/foo/waldo", "path": "/qux/thud" } ]"#,
      expected: #"{ "foo": { "bar": "baz" }, "qux": { "corge": "grault", "thud": "fred" } }"#),
    Example(
      name: "A.7 moving an array element",
      document: #"{ "foo": [ "all", "grass", "cows", "eat" ] }"#,
      patch: #"[ { "op": "move", "from": "/foo/1", "path": "/foo/3" } ]"#,
      expected: #"{ "foo": [ "all", "cows", "eat", "grass" ] }"#),
    Example(
      name: "A.8 testing a value: success",
      document: #"{ "baz": "qux", "foo": [ "a", 2, "c" ] }"#,
      patch: #"""
        [ { "op": "test", "path": "/baz", "value": "qux" },
          { "op": "test", "path": "/foo/1", "value": 2 } ]
        """#,
      expected: #"{ "baz": "qux", "foo": [ "a", 2, "c" ] }"#),
    Example(
      name: "A.10 adding a nested member object",
      document: #"{ "foo": "bar" }"#,
      patch: #"[ { "op": "add", "path": "/child", "value": { "grandchild": { } } } ]"#,
      expected: #"{ "foo": "bar", "child": { "grandchild": { } } }"#),
    Example(
      name: "A.11 ignoring unrecognized elements",
      document: #"{ "foo": "bar" }"#,
      patch: #"[ { "op": "add", "path": "/baz", "value": "qux", "xyz": 123 } ]"#,
      expected: #"{ "foo": "bar", "baz": "qux" }"#),
    Example(
      name: "A.14 ~ escape ordering",
      document: #"{ "/": 9, "~1": 10 }"#,
      patch: #"[ {"op": "test", "path": "/~01", "value": 10} ]"#,
      expected: #"{ "/": 9, "~1": 10 }"#),
    Example(
      name: "A.16 adding an array value",
      document: #"{ "foo": ["bar"] }"#,
      patch: #"[ { "op": "add", "path": "/foo/-", "value": ["abc", "def"] } ]"#,
      expected: #"{ "foo": ["bar", ["abc", "def"]] }"#),
  ]

  static let failures: [Example] = [
    Example(
      name: "A.9 testing a value: error",
      document: #"{ "baz": "qux" }"#,
      patch: #"[ { "op": "test", "path": "/baz", "value": "bar" } ]"#,
      error: .testFailed(expected: "bar", actual: "qux")),
    Example(
      name: "A.12 adding to a nonexistent target",
      document: #"{ "foo": "bar" }"#,
      patch: #"[ { "op": "add", "path": "/baz/bat", "value": "qux" } ]"#,
      error: .parentNotFound),
    Example(
      name: "A.15 comparing strings and numbers",
      document: #"{ "/": 9, "~1": 10 }"#,
      patch: #"[ {"op": "test", "path": "/~01", "value": "10"} ]"#,
      error: .testFailed(expected: "10", actual: 10)),
  ]

  @Test("Successful examples produce the RFC's resulting document", arguments: successes)
  func success(example: Example) throws {
    let document = try json(example.document)
    let patch = try JSONPatch(json: json(example.patch))
    let result = try patch.apply(to: document)
    #expect(result == (try json(example.expected!)))
  }

  @Test("Failing examples throw, naming operation 0 and the RFC's reason", arguments: failures)
  func failure(example: Example) throws {
    let document = try json(example.document)
    let patch = try JSONPatch(json: json(example.patch))
    let error = #expect(throws: JSONPatchError.self) { try patch.apply(to: document) }
    #expect(error?.reason == example.error)
    #expect(error?.operationIndex == 0)
  }

  @Test("A.13: a patch object with a duplicate \"op\" member is rejected when read")
  func duplicateOperationMember() {
    let text = #"[ { "op": "add", "path": "/baz", "value": "qux", "op": "remove" } ]"#
    let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    #expect(error?.description == #"duplicate key "op" at byte 49"#)
  }

  @Test("A.8 and A.14: test compares numbers by value and objects regardless of order")
  func testOperationSemantics() throws {
    let document = try json(#"{ "n": 2, "o": { "a": 1, "b": [1.0, {"x": null, "y": true}] } }"#)
    let patch = try JSONPatch(
      json: json(
        #"""
        [ { "op": "test", "path": "/n", "value": 2.0 },
          { "op": "test", "path": "/o", "value": { "b": [1, {"y": true, "x": null}], "a": 1.0 } } ]
        """#))
    #expect(try patch.apply(to: document) == document)
    let mismatch = JSONPatch([.test(path: JSONPointer("/o/b/0")!, value: "1")])
    #expect(throws: JSONPatchError.self) { try mismatch.apply(to: document) }
  }

  @Test("The error description names index, op, path and problem")
  func errorDescription() throws {
    let document = try json(#"{ "todos": [ {"title": "a"}, {"title": "b"} ] }"#)
    let patch = try JSONPatch(
      json: json(
        #"""
        [ { "op": "test", "path": "/todos/0/title", "value": "a" },
          { "op": "replace", "path": "/todos/0/title", "value": "A" },
          { "op": "add", "path": "/todos/-", "value": {} },
          { "op": "replace", "path": "/todos/2/title", "value": "c" } ]
        """#))
    let error = #expect(throws: JSONPatchError.self) { try patch.apply(to: document) }
    #expect(error?.description == "operation 3 (replace /todos/2/title): path does not exist")
  }
}
