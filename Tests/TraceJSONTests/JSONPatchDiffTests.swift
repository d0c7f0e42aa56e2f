import Testing

@testable import TraceJSON

@Suite("JSON Patch: diff and inversion")
struct JSONPatchDiffTests {
  static func todo(_ id: Int, title: String? = nil) -> JSONValue {
    ["id": .integer(Int64(id)), "title": .string(title ?? "Todo \(id)"), "isComplete": false]
  }

  static let thousand: [JSONValue] = (0..<1000).map { todo($0) }

  /// Checks the diff's contract for one pair and returns the patch.
  @discardableResult
  static func checkRoundTrip(
    _ old: JSONValue,
    _ new: JSONValue,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> JSONPatch {
    let patch = JSONPatch.diff(from: old, to: new)
    let forward = try patch.apply(to: old)
    #expect(forward.isIdentical(to: new), "forward \(patch.json)", sourceLocation: sourceLocation)
    let inverse = try patch.inverted()
    let backward = try inverse.apply(to: new)
    #expect(
      backward.isIdentical(to: old), "backward \(inverse.json)", sourceLocation: sourceLocation)
    // Reversible: every remove and replace follows a test of the old value at the same path.
    for (index, operation) in patch.operations.enumerated() {
      switch operation {
      case .remove(let path), .replace(let path, _):
        guard index > 0, case .test(let testPath, _) = patch.operations[index - 1] else {
          Issue.record(
            "operation \(index) is not preceded by a test", sourceLocation: sourceLocation)
          continue
        }
        #expect(testPath == path, sourceLocation: sourceLocation)
      default:
        break
      }
    }
    return patch
  }

  @Test("Identical documents give an empty patch, member order notwithstanding")
  func identical() throws {
    let a: JSONValue = ["x": 1, "y": [1, 2, ["z": nil]]]
    let b: JSONValue = ["y": [1, 2, ["z": nil]], "x": 1]
    #expect(JSONPatch.diff(from: a, to: b).isEmpty)
    #expect(JSONPatch.diff(from: Self.thousand.json, to: Self.thousand.json).isEmpty)
  }

  @Test("Removing one element of 1,000 identified elements is exactly test + remove")
  func identityRemoval() throws {
    var new = Self.thousand
    new.remove(at: 500)
    let patch = try Self.checkRoundTrip(.array(Self.thousand), .array(new))
    #expect(
      patch.operations == [
        .test(path: JSONPointer("/500")!, value: Self.todo(500)),
        .remove(path: JSONPointer("/500")!),
      ])
  }

  @Test("Inserting one identified element is exactly one add at its index")
  func identityInsertion() throws {
    var new = Self.thousand
    new.insert(Self.todo(5000), at: 10)
    let patch = try Self.checkRoundTrip(["todos": .array(Self.thousand)], ["todos": .array(new)])
    #expect(patch.operations == [.add(path: JSONPointer("/todos/10")!, value: Self.todo(5000))])
  }

  @Test("Moving one identified element is exactly one move")
  func identityMove() throws {
    var new = Self.thousand
    new.append(new.removeFirst())
    let patch = try Self.checkRoundTrip(.array(Self.thousand), .array(new))
    #expect(patch.operations == [.move(from: JSONPointer("/0")!, path: JSONPointer("/999")!)])
  }

  @Test("A changed identified element is diffed in place at its index")
  func identityChange() throws {
    var new = Self.thousand
    new[42] = Self.todo(42, title: "Renamed")
    let patch = try Self.checkRoundTrip(.array(Self.thousand), .array(new))
    #expect(
      patch.operations == [
        .test(path: JSONPointer("/42/title")!, value: "Todo 42"),
        .replace(path: JSONPointer("/42/title")!, value: "Renamed"),
      ])
  }

  @Test("Removal, insertion, reorder and change together stay correct in sequence")
  func identityCombined() throws {
    let old: [JSONValue] = (0..<8).map { Self.todo($0) }
    let new: [JSONValue] = [
      Self.todo(7), Self.todo(100), Self.todo(1), Self.todo(3, title: "three"), Self.todo(2),
      Self.todo(6), Self.todo(101),
    ]
    try Self.checkRoundTrip(.array(old), .array(new))
  }

  @Test("Reversing 1,000 identified elements uses only moves and round-trips")
  func identityReverse() throws {
    let patch = try Self.checkRoundTrip(.array(Self.thousand), .array(Self.thousand.reversed()))
    #expect(patch.operations.count == 999)
    #expect(patch.operations.allSatisfy { $0.name == "move" })
  }

  @Test("Plain arrays: appending or removing at the tail is a single operation")
  func tailEdits() throws {
    let old: JSONValue = [1, 2, 3]
    #expect(
      try Self.checkRoundTrip(old, [1, 2, 3, 4]).operations == [
        .add(path: JSONPointer("/3")!, value: 4)
      ])
    #expect(
      try Self.checkRoundTrip(old, [1, 2]).operations == [
        .test(path: JSONPointer("/2")!, value: 3), .remove(path: JSONPointer("/2")!),
      ])
    #expect(
      try Self.checkRoundTrip(old, [0, 1, 2, 3]).operations == [
        .add(path: JSONPointer("/0")!, value: 0)
      ])
  }

  @Test("Objects: removed, changed and added keys in a fixed order")
  func objects() throws {
    let old: JSONValue = ["keep": 1, "drop": "x", "change": ["deep": true], "a/b": 0]
    let new: JSONValue = ["keep": 1, "change": ["deep": false], "a/b": 0, "new~": [1]]
    let patch = try Self.checkRoundTrip(old, new)
    #expect(
      patch.operations == [
        .test(path: JSONPointer("/drop")!, value: "x"),
        .remove(path: JSONPointer("/drop")!),
        .test(path: JSONPointer("/change/deep")!, value: true),
        .replace(path: JSONPointer("/change/deep")!, value: false),
        .add(path: JSONPointer("/new~0")!, value: [1]),
      ])
  }

  @Test("Representation changes are kept: 1 vs 1.0, 0.0 vs -0.0, root type changes")
  func exactness() throws {
    #expect(try Self.checkRoundTrip(["n": 1], ["n": 1.0]).operations.count == 2)
    #expect(try Self.checkRoundTrip([0.0], [-0.0]).operations.count == 2)
    let patch = try Self.checkRoundTrip(["a": 1], [1, 2])
    #expect(
      patch.operations == [
        .test(path: JSONPointer.root, value: ["a": 1]),
        .replace(path: JSONPointer.root, value: [1, 2]),
      ])
  }

  @Test("Seeded random pairs: apply(diff(a, b), a) == b and the inverse restores a")
  func randomPairs() throws {
    var random = RandomJSON(seed: 0x5EED_1234)
    var operationCounts: [String: Int] = [:]
    for round in 0..<1500 {
      let a = random.value(depth: 4)
      let b = round.isMultiple(of: 5) ? random.value(depth: 4) : random.mutate(a, depth: 4)
      let patch = try Self.checkRoundTrip(a, b)
      // The patch survives its JSON text form.
      let reread = try JSONPatch(json: JSONValue(parsing: patch.json.jsonBytes))
      #expect(try reread.apply(to: a).isIdentical(to: b))
      for operation in patch.operations { operationCounts[operation.name, default: 0] += 1 }
    }
    // The generator must exercise every kind of operation the diff emits, or this proves little.
    for name in ["add", "remove", "replace", "move", "test"] {
      #expect(operationCounts[name, default: 0] >= 50, "\(name): \(operationCounts)")
    }
  }

  @Test("Inversion refuses patches that do not record what they overwrite")
  func notReversible() throws {
    let cases: [JSONPatch] = [
      JSONPatch([.remove(path: JSONPointer("/a")!)]),
      JSONPatch([.replace(path: JSONPointer("/a")!, value: 1)]),
      JSONPatch([.test(path: JSONPointer("/b")!, value: 1), .remove(path: JSONPointer("/a")!)]),
      JSONPatch([.add(path: JSONPointer("/list/-")!, value: 1)]),
      JSONPatch([.add(path: JSONPointer.root, value: 1)]),
      JSONPatch([.copy(from: JSONPointer("/a")!, path: JSONPointer("/b")!)]),
    ]
    for patch in cases {
      let error = #expect(throws: JSONPatchError.self) { try patch.inverted() }
      guard case .notReversible = error?.reason else {
        Issue.record("expected notReversible, got \(String(describing: error))")
        continue
      }
    }
    let error = #expect(throws: JSONPatchError.self) {
      try JSONPatch(cases[2].operations).inverted()
    }
    #expect(error?.description.hasPrefix("operation 1 (remove /a): not reversible") == true)
  }

  @Test("The inverse of the inverse is the original patch")
  func doubleInverse() throws {
    let old: JSONValue = ["list": [1, 2, 3], "name": "a", "gone": true]
    let new: JSONValue = ["list": [1, 3, 4, 5], "name": "b", "added": nil]
    let patch = JSONPatch.diff(from: old, to: new)
    #expect(try patch.inverted().inverted() == patch)
  }
}

extension Array where Element == JSONValue {
  fileprivate var json: JSONValue { .array(self) }
}
