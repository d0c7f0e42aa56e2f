@testable import Architecture
import Foundation
import Testing

private struct Todo: Identifiable, Equatable, Hashable, Codable, Sendable {
  var id: Int
  var title = ""
  var isComplete = false
  var tags: [String] = []
}

private struct Tracked: Identifiable {
  var id: Int
  var token: Lifetime
  var payload: [Int]
}

private func todos(_ ids: Int...) -> IdentifiedArrayOf<Todo> {
  IdentifiedArray(uniqueElements: ids.map { Todo(id: $0, title: "\($0)") })
}

/// Checks the id index against the elements: `ids` lists their ids and finds each at its index.
private func expectConsistent<ID, Element>(
  _ array: IdentifiedArray<ID, Element>,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let ids = array.map { $0[keyPath: array.id] }
  #expect(array.ids.elements == ids, sourceLocation: sourceLocation)
  for (index, id) in ids.enumerated() {
    #expect(array.index(id: id) == index, sourceLocation: sourceLocation)
  }
}

@Suite("IdentifiedArray")
struct IdentifiedArrayTests {
  // MARK: Creating

  @Test("init(), an array literal and init(uniqueElements:) keep the elements in order")
  func initializers() {
    let empty = IdentifiedArrayOf<Todo>()
    #expect(empty.isEmpty)
    let literal: IdentifiedArrayOf<Todo> = [Todo(id: 2), Todo(id: 1)]
    #expect(literal.ids == [2, 1])
    let unique = IdentifiedArray(uniqueElements: [Todo(id: 5), Todo(id: 4)])
    #expect(unique.map(\.id) == [5, 4])
    let byKeyPath = IdentifiedArray(uniqueElements: ["b", "a"], id: \.self)
    #expect(byKeyPath.ids == ["b", "a"])
    #expect(byKeyPath[id: "a"] == "a")
    var numbers = IdentifiedArray(id: \Int.self)
    numbers.append(3)
    #expect(numbers.elements == [3])
    expectConsistent(literal)
    expectConsistent(byKeyPath)
  }

  @Test("init(uniqueElements:) reports a duplicate id and keeps the first element with it")
  func duplicatesReported() {
    var array: IdentifiedArrayOf<Todo> = []
    let issues = withIssueCapture {
      array = IdentifiedArray(
        uniqueElements: [Todo(id: 1, title: "first"), Todo(id: 2), Todo(id: 1, title: "second")]
      )
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix("Duplicate id 1 at offset 2") == true)
    #expect(issues.first?.fileID.hasSuffix("IdentifiedArrayTests.swift") == true)
    #expect(array.map(\.title) == ["first", ""])

    let literalIssues = withIssueCapture {
      let _: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 1)]
    }
    #expect(literalIssues.count == 1)

    let keyPathIssues = withIssueCapture {
      array = IdentifiedArray(uniqueElements: [Todo(id: 7), Todo(id: 7)], id: \.id)
    }
    #expect(keyPathIssues.count == 1)
    #expect(array.count == 1)
  }

  @Test("init(uncheckedUniqueElements:) keeps the first of duplicates without reporting")
  func uncheckedUniqueElements() {
    var array = IdentifiedArrayOf<Todo>()
    let issues = withIssueCapture {
      array = IdentifiedArray(uncheckedUniqueElements: [Todo(id: 1, title: "a"), Todo(id: 1)])
    }
    #expect(issues.isEmpty)
    #expect(array.map(\.title) == ["a"])
  }

  @Test("init(_:uniquingIDsWith:) combines elements that share an id, in the first one's place")
  func uniquingIDs() {
    let array = IdentifiedArray(
      [Todo(id: 1, title: "a"), Todo(id: 2, title: "b"), Todo(id: 1, title: "c")],
      uniquingIDsWith: { Todo(id: $0.id, title: $0.title + $1.title) }
    )
    #expect(array.map(\.title) == ["ac", "b"])
    let words = IdentifiedArray(["x", "y", "x"], id: \.self, uniquingIDsWith: { a, _ in a })
    #expect(words.elements == ["x", "y"])
    expectConsistent(array)
  }

  // MARK: Access by id

  @Test("subscript(id:) reads the element with the id, or nil")
  func subscriptRead() {
    let array = todos(1, 2, 3)
    #expect(array[id: 2]?.title == "2")
    #expect(array[id: 4] == nil)
    #expect(array.index(id: 3) == 2)
    #expect(array.index(id: 4) == nil)
    #expect(array.ids == [1, 2, 3])
    #expect(array.ids.contains(2))
  }

  @Test("subscript(id:) replaces in place, appends a new id and removes on nil")
  func subscriptWrite() {
    var array = todos(1, 2, 3)
    array[id: 2] = Todo(id: 2, title: "two")
    #expect(array.map(\.title) == ["1", "two", "3"])
    array[id: 9] = Todo(id: 9, title: "nine")
    #expect(array.ids == [1, 2, 3, 9])
    array[id: 1] = nil
    #expect(array.ids == [2, 3, 9])
    array[id: 42] = nil
    #expect(array.ids == [2, 3, 9])
    expectConsistent(array)
  }

  @Test("subscript(id:) mutates an element in place, without copying it or rebuilding the index")
  func subscriptMutatesInPlace() {
    var array = todos(1, 2, 3)
    array[id: 2]?.tags.reserveCapacity(16)
    array[id: 2]?.tags.append("a")
    let tagsBuffer = array[id: 2]?.tags.withUnsafeBufferPointer { $0.baseAddress }
    let idsBuffer = array.ids._elements.withUnsafeBufferPointer { $0.baseAddress }
    let storage = ObjectIdentifier(array._storage)

    array[id: 2]?.tags.append("b")
    array[id: 2]?.isComplete.toggle()

    #expect(array[id: 2]?.tags == ["a", "b"])
    #expect(array[id: 2]?.isComplete == true)
    // The element's own array grew in its buffer: the element was never copied.
    #expect(array[id: 2]?.tags.withUnsafeBufferPointer { $0.baseAddress } == tagsBuffer)
    // The id index is the same buffer, and so is the array's storage.
    #expect(array.ids._elements.withUnsafeBufferPointer { $0.baseAddress } == idsBuffer)
    #expect(ObjectIdentifier(array._storage) == storage)
    expectConsistent(array)
  }

  @Test("subscript(id:) mutation through optional chaining that sets nil removes the element")
  func subscriptModifyToNil() {
    var array = todos(1, 2, 3)
    func clear(_ todo: inout Todo?) { todo = nil }
    clear(&array[id: 2])
    #expect(array.ids == [1, 3])
    var created: Todo?
    func create(_ todo: inout Todo?) { todo = Todo(id: 4); created = todo }
    create(&array[id: 4])
    #expect(array.ids == [1, 3, 4])
    #expect(created == Todo(id: 4))
    expectConsistent(array)
  }

  @Test("Assigning an element with another id through subscript(id:) is reported and ignored")
  func subscriptWrongIDAssignment() {
    var array = todos(1, 2)
    let issues = withIssueCapture {
      array[id: 1] = Todo(id: 5)
      array[id: 7] = Todo(id: 8)
    }
    #expect(issues.count == 2)
    #expect(issues.allSatisfy { $0.message.hasPrefix("Element identity must remain constant") })
    #expect(array == todos(1, 2))
  }

  @Test("Changing an element's id via subscript(id:) is reported; re-keyed, or dropped if taken")
  func subscriptIDMutation() {
    var array = todos(1, 2, 3)
    let rekeyed = withIssueCapture { array[id: 1]?.id = 10 }
    #expect(rekeyed.count == 1)
    #expect(rekeyed.first?.message.contains("now stored under its new id") == true)
    #expect(array.ids == [10, 2, 3])
    #expect(array[id: 10]?.title == "1")

    let dropped = withIssueCapture { array[id: 2]?.id = 3 }
    #expect(dropped.count == 1)
    #expect(dropped.first?.message.contains("was removed") == true)
    #expect(array.ids == [10, 3])
    #expect(array[id: 3]?.title == "3")
    expectConsistent(array)
  }

  // MARK: Access by position

  @Test("subscript(position:) reads and mutates; an id change is reported and handled")
  func positionSubscript() {
    var array = todos(1, 2, 3)
    #expect(array[1].title == "2")
    array[1].title = "two"
    #expect(array[id: 2]?.title == "two")
    array[2] = Todo(id: 3, title: "three")
    #expect(array[id: 3]?.title == "three")

    let ignored = withIssueCapture { array[0] = Todo(id: 99) }
    #expect(ignored.count == 1)
    #expect(array.ids == [1, 2, 3])

    let rekeyed = withIssueCapture { array[0].id = 100 }
    #expect(rekeyed.count == 1)
    #expect(array.ids == [100, 2, 3])
    let dropped = withIssueCapture { array[0].id = 2 }
    #expect(dropped.count == 1)
    #expect(array.ids == [2, 3])
    expectConsistent(array)
  }

  @Test("It is a RandomAccessCollection with indices 0..<count")
  func collection() {
    let array = todos(1, 2, 3)
    #expect(array.count == 3)
    #expect(array.startIndex == 0 && array.endIndex == 3)
    #expect(array.indices == 0..<3)
    #expect(array.first?.id == 1 && array.last?.id == 3)
    #expect(array.reversed().map(\.id) == [3, 2, 1])
    #expect(array[1...].map(\.id) == [2, 3])
    #expect(array.index(after: 0) == 1 && array.index(before: 3) == 2)
    #expect(array.distance(from: 0, to: 3) == 3)
    #expect(array.elements.map(\.id) == [1, 2, 3])
  }

  // MARK: Inserting

  @Test("append(_:) reports whether it inserted and the index; a present id is left alone")
  func append() {
    var array = todos(1, 2)
    let added = array.append(Todo(id: 3))
    #expect(added.inserted && added.index == 2)
    let existing = array.append(Todo(id: 1, title: "changed"))
    #expect(!existing.inserted && existing.index == 0)
    #expect(array[id: 1]?.title == "1")
    array.append(contentsOf: [Todo(id: 4), Todo(id: 2), Todo(id: 5)])
    #expect(array.ids == [1, 2, 3, 4, 5])
    expectConsistent(array)
  }

  @Test("insert(_:at:) inserts at the index unless the id is present")
  func insert() {
    var array = todos(1, 3)
    let inserted = array.insert(Todo(id: 2), at: 1)
    #expect(inserted.inserted && inserted.index == 1)
    #expect(array.ids == [1, 2, 3])
    let front = array.insert(Todo(id: 0), at: 0)
    #expect(front.inserted && front.index == 0)
    let present = array.insert(Todo(id: 3, title: "x"), at: 0)
    #expect(!present.inserted && present.index == 3)
    #expect(array.ids == [0, 1, 2, 3])
    #expect(array[id: 3]?.title == "3")
    expectConsistent(array)
  }

  @Test("updateOrAppend, updateOrInsert and update(_:at:) replace by id")
  func updates() {
    var array = todos(1, 2)
    #expect(array.updateOrAppend(Todo(id: 2, title: "b")) == Todo(id: 2, title: "2"))
    #expect(array.updateOrAppend(Todo(id: 3)) == nil)
    #expect(array.ids == [1, 2, 3])
    let inserted = array.updateOrInsert(Todo(id: 0), at: 0)
    #expect(inserted.originalMember == nil && inserted.index == 0)
    let updated = array.updateOrInsert(Todo(id: 2, title: "c"), at: 0)
    #expect(updated.originalMember?.title == "b" && updated.index == 2)
    #expect(array.update(Todo(id: 0, title: "zero"), at: 0) == Todo(id: 0))
    #expect(array[0].title == "zero")
    let issues = withIssueCapture { array.update(Todo(id: 9), at: 0) }
    #expect(issues.count == 1)
    #expect(array[0].id == 0)
    expectConsistent(array)
  }

  // MARK: Removing

  @Test("remove(id:) and remove(at:) return the removed element")
  func removeByIDAndIndex() {
    var array = todos(1, 2, 3, 4)
    #expect(array.remove(id: 2)?.id == 2)
    #expect(array.remove(id: 2) == nil)
    #expect(array.remove(at: 0).id == 1)
    #expect(array.ids == [3, 4])
    #expect(array.index(id: 4) == 1)
    expectConsistent(array)
  }

  @Test("remove(atOffsets:) removes the elements at the offsets")
  func removeAtOffsets() {
    var array = todos(0, 1, 2, 3, 4, 5)
    array.remove(atOffsets: [0, 2, 5])
    #expect(array.ids == [1, 3, 4])
    array.remove(atOffsets: [])
    #expect(array.ids == [1, 3, 4])
    expectConsistent(array)
  }

  @Test("removeAll(where:) keeps the rest in order; a throwing predicate removes nothing")
  func removeAllWhere() {
    var array = todos(1, 2, 3, 4, 5)
    array.removeAll { $0.id.isMultiple(of: 2) }
    #expect(array.ids == [1, 3, 5])
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try array.removeAll { todo in
        if todo.id == 3 { throw Stop() }
        return true
      }
    }
    #expect(array.ids == [1, 3, 5])
    expectConsistent(array)
  }

  @Test("removeAll, removeFirst, removeLast, removeSubrange and popLast")
  func otherRemovals() {
    var array = todos(1, 2, 3, 4, 5, 6)
    #expect(array.removeFirst().id == 1)
    #expect(array.removeLast().id == 6)
    array.removeFirst(1)
    array.removeLast(1)
    #expect(array.ids == [3, 4])
    #expect(array.popLast()?.id == 4)
    array.append(contentsOf: [Todo(id: 7), Todo(id: 8)])
    array.removeSubrange(1..<2)
    #expect(array.ids == [3, 8])
    array.removeAll()
    #expect(array.isEmpty && array.ids.isEmpty)
    #expect(array.popLast() == nil)
    array.append(Todo(id: 1))
    #expect(array.ids == [1])
  }

  // MARK: Reordering

  @Test("move(fromOffsets:toOffset:) moves like SwiftUI's onMove")
  func move() {
    /// What `move` must do, on a plain array.
    func reference(_ array: [Int], _ source: IndexSet, _ destination: Int) -> [Int] {
      let moving = source.map { array[$0] }
      var result = array.enumerated().filter { !source.contains($0.offset) }.map(\.element)
      let before = source.count { $0 < destination }
      result.insert(contentsOf: moving, at: destination - before)
      return result
    }
    let cases: [(IndexSet, Int)] = [
      ([0], 3), ([3], 0), ([0, 2], 4), ([1, 3], 1), ([4], 5), ([0, 1, 2, 3, 4], 2), ([2], 2),
    ]
    for (source, destination) in cases {
      var array = todos(0, 1, 2, 3, 4)
      array.move(fromOffsets: source, toOffset: destination)
      #expect(
        array.map(\.id) == reference([0, 1, 2, 3, 4], source, destination),
        "move(fromOffsets: \(Array(source)), toOffset: \(destination))"
      )
      expectConsistent(array)
    }
  }

  @Test("sort, swapAt, reverse, shuffle and partition reorder elements and ids together")
  func permutations() {
    var array = todos(3, 1, 2)
    array.sort { $0.id < $1.id }
    #expect(array.ids == [1, 2, 3])
    expectConsistent(array)
    array.swapAt(0, 2)
    #expect(array.ids == [3, 2, 1])
    expectConsistent(array)
    array.reverse()
    #expect(array.ids == [1, 2, 3])
    var generator = SplitMix64(seed: 1)
    array.shuffle(using: &generator)
    expectConsistent(array)
    let pivot = array.partition { $0.id == 2 }
    #expect(pivot == 2 && array[2].id == 2)
    expectConsistent(array)

    var numbers = IdentifiedArray(uniqueElements: [3, 1, 2], id: \.self)
    numbers.sort()
    #expect(numbers.elements == [1, 2, 3])
    expectConsistent(numbers)
  }

  @Test("filter returns an identified array of the matching elements")
  func filter() {
    let array = todos(1, 2, 3, 4)
    let even: IdentifiedArrayOf<Todo> = array.filter { $0.id.isMultiple(of: 2) }
    #expect(even.ids == [2, 4])
    #expect(even[id: 4]?.title == "4")
    expectConsistent(even)
    let plain: [Todo] = array.filter { $0.id > 3 }
    #expect(plain.map(\.id) == [4])
  }

  // MARK: Value semantics

  @Test("Copies share storage until one is mutated, and _isIdentical(to:) says so in O(1)")
  func copyOnWrite() {
    var array = todos(1, 2, 3)
    let copy = array
    #expect(array._isIdentical(to: copy))
    array[id: 2]?.title = "changed"
    #expect(!array._isIdentical(to: copy))
    #expect(copy[id: 2]?.title == "2")
    #expect(array[id: 2]?.title == "changed")

    var other = copy
    other.append(Todo(id: 4))
    other.remove(id: 1)
    other.sort { $0.id > $1.id }
    #expect(copy.ids == [1, 2, 3])
    #expect(other.ids == [4, 3, 2])

    #expect(!todos(1)._isIdentical(to: todos(1)))
    #expect(todos(1) == todos(1))
  }

  @Test("Equatable and Hashable compare elements in order")
  func equatableHashable() {
    #expect(todos(1, 2) == todos(1, 2))
    #expect(todos(1, 2) != todos(2, 1))
    #expect(todos(1, 2) != todos(1))
    #expect(Set([todos(1, 2), todos(1, 2), todos(2, 1)]).count == 2)
  }

  @Test("An array of Sendable elements is Sendable")
  func sendable() async {
    let array = todos(1, 2)
    let count = await Task.detached { array.count }.value
    #expect(count == 2)
  }

  // MARK: Codable and descriptions

  @Test("It encodes as a plain JSON array and decodes back")
  func codable() throws {
    let array: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(array), as: UTF8.self)
    #expect(json == String(decoding: try encoder.encode(array.elements), as: UTF8.self))
    #expect(json.hasPrefix("[{"))
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: Data(json.utf8))
    #expect(decoded == array)
    expectConsistent(decoded)
  }

  @Test("Decoding rejects a duplicate id with DecodingError.dataCorrupted")
  func decodingDuplicates() throws {
    let json = #"[{"id":1,"title":"","isComplete":false,"tags":[]},"#
      + #"{"id":1,"title":"","isComplete":false,"tags":[]}]"#
    do {
      _ = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: Data(json.utf8))
      Issue.record("decoding must throw")
    } catch let DecodingError.dataCorrupted(context) {
      #expect(context.debugDescription.hasPrefix("Duplicate element at offset 1"))
    }
  }

  @Test("description reads like an array's, and the mirror shows the elements")
  func descriptions() {
    let numbers = IdentifiedArray(uniqueElements: [1, 2], id: \.self)
    #expect(numbers.description == "[1, 2]")
    #expect(IdentifiedArray(uniqueElements: ["a"], id: \.self).description == #"["a"]"#)
    #expect(numbers.debugDescription == "IdentifiedArray<Swift.Int, Swift.Int>([1, 2])")
    let mirror = Mirror(reflecting: numbers)
    #expect(mirror.displayStyle == .collection)
    #expect(mirror.children.map { $0.value as? Int } == [1, 2])
  }

  // MARK: Memory

  @Test("Random operations keep ids consistent and destroy every element exactly once")
  func randomOperations() {
    let live = LiveCount()
    do {
      var generator = SplitMix64(seed: 42)
      var array = IdentifiedArrayOf<Tracked>()
      var model: [Int] = []
      var snapshots: [IdentifiedArrayOf<Tracked>] = []
      func make(_ id: Int) -> Tracked { Tracked(id: id, token: Lifetime(live), payload: [id]) }
      for step in 0..<3_000 {
        let id = Int.random(in: 0..<60, using: &generator)
        switch Int.random(in: 0..<10, using: &generator) {
        case 0:
          if array.append(make(id)).inserted { model.append(id) }
        case 1:
          let index = Int.random(in: 0...model.count, using: &generator)
          if array.insert(make(id), at: index).inserted { model.insert(id, at: index) }
        case 2:
          array.remove(id: id)
          model.removeAll { $0 == id }
        case 3:
          array[id: id] = make(id)
          if !model.contains(id) { model.append(id) }
        case 4:
          array[id: id]?.payload.append(step)
        case 5:
          array.removeAll { $0.id % 7 == id % 7 }
          model.removeAll { $0 % 7 == id % 7 }
        case 6:
          let offsets = IndexSet(model.indices.filter { _ in Bool.random(using: &generator) })
          let destination = Int.random(in: 0...model.count, using: &generator)
          array.move(fromOffsets: offsets, toOffset: destination)
          let moving = offsets.map { model[$0] }
          model = model.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
          model.insert(contentsOf: moving, at: destination - offsets.count { $0 < destination })
        case 7:
          array.sort { $0.id < $1.id }
          model.sort()
        case 8:
          if !model.isEmpty {
            let index = Int.random(in: 0..<model.count, using: &generator)
            let element = array.remove(at: index)
            #expect(element.id == model.remove(at: index))
          }
        default:
          snapshots.append(array)
          if snapshots.count > 3 { snapshots.removeFirst() }
        }
        #expect(array.map(\.id) == model)
      }
      expectConsistent(array)
    }
    #expect(live.live == 0)
  }
}

@Suite("OrderedSet")
struct OrderedSetTests {
  @Test("It keeps insertion order, rejects duplicates and finds elements in O(1)")
  func basics() {
    var set: OrderedSet = [3, 1, 3, 2]
    #expect(set.elements == [3, 1, 2])
    #expect(set.append(1) == (false, 1))
    #expect(set.append(4) == (true, 3))
    #expect(set.insert(0, at: 0) == (true, 0))
    #expect(set.elements == [0, 3, 1, 2, 4])
    #expect(set.firstIndex(of: 2) == 3)
    #expect(set.contains(4) && !set.contains(9))
    #expect(set.remove(3) == 3)
    #expect(set.remove(3) == nil)
    #expect(set.firstIndex(of: 4) == 3)
    set.removeAll { $0.isMultiple(of: 2) }
    #expect(set == [1])
    #expect(set.description == "[1]")
    #expect(OrderedSet([1, 2]) != OrderedSet([2, 1]))
  }
}
