@testable import Architecture
import Foundation
import Testing

// The identified array keeps its elements in small copy-on-write chunks, so that mutating one
// element of an array whose previous version is still alive (a trace recorder diffing old and new
// state) copies one chunk, and so that the recorder finds the changed chunks without comparing
// every element. These tests check that sharing, and that the chunked storage still behaves like
// a plain array of elements with unique ids.

// Positions are written in terms of the chunk size, so that these tests check the boundaries of
// whatever size the storage uses.
private let chunkSize = _IdentifiedArrayChunks.size
/// Where the last chunk of a 1,000-element array starts.
private let lastChunkStart = 999 / chunkSize * chunkSize

private struct Todo: Identifiable, Equatable, Hashable, Codable, Sendable {
  var id: Int
  var title = ""
  var isComplete = false
}

/// Counts comparisons of `Counted` elements, per test.
private final class ComparisonCount: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  var count: Int { lock.withLock { value } }
  func add() { lock.withLock { value += 1 } }
  func reset() { lock.withLock { value = 0 } }
}

/// An element that counts how often it is compared.
private struct Counted: Identifiable, Equatable {
  var id: Int
  var value = 0
  let comparisons: ComparisonCount

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.comparisons.add()
    return lhs.id == rhs.id && lhs.value == rhs.value
  }
}

/// The model test's element: equal by id and value; the lifetime only counts instances.
private struct Item: Identifiable, Equatable, CustomStringConvertible {
  var id: Int
  var value: Int
  var lifetime: Lifetime

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.id == rhs.id && lhs.value == rhs.value
  }

  var description: String { "\(id):\(value)" }
}

private func todos(_ ids: Range<Int>) -> IdentifiedArrayOf<Todo> {
  IdentifiedArray(uniqueElements: ids.map { Todo(id: $0, title: "\($0)") })
}

/// The positions of the chunk that holds `position` in an array of `count` elements.
private func chunkRange(of position: Int, count: Int) -> Range<Int> {
  let start = position / chunkSize * chunkSize
  return start..<min(start + chunkSize, count)
}

/// The bytes of a value: equal for two dictionaries exactly when they share one storage.
private func bytes<T>(of value: T) -> [UInt8] {
  withUnsafeBytes(of: value) { Array($0) }
}

/// Whether the id index of both arrays is one shared index, neither copied nor rebuilt.
private func sharesIDIndex<ID, Element>(
  _ lhs: IdentifiedArray<ID, Element>,
  _ rhs: IdentifiedArray<ID, Element>
) -> Bool {
  let lhsIDs = lhs.ids
  let rhsIDs = rhs.ids
  let sameElements = lhsIDs._elements.withUnsafeBufferPointer { lhs in
    rhsIDs._elements.withUnsafeBufferPointer { $0.baseAddress == lhs.baseAddress }
  }
  return sameElements && bytes(of: lhsIDs._positions) == bytes(of: rhsIDs._positions)
}

/// Checks the id index against the elements: `ids` lists their ids and finds each at its index.
private func isConsistent<ID, Element>(_ array: IdentifiedArray<ID, Element>) -> Bool {
  let ids = array.map { $0[keyPath: array.id] }
  guard array.ids.elements == ids, array.count == ids.count else { return false }
  return ids.enumerated().allSatisfy { array.index(id: $0.element) == $0.offset }
}

@Suite("IdentifiedArray chunks")
struct IdentifiedArrayChunkTests {
  // MARK: Sharing

  /// The ways of mutating one element, each given the array and the element's position.
  private static var elementMutations: [(String, (inout IdentifiedArrayOf<Todo>, Int) -> Void)] {
    [
      ("subscript(id:) _modify", { array, position in array[id: position]?.isComplete.toggle() }),
      ("subscript(id:) set", { array, position in array[id: position] = Todo(id: position) }),
      ("subscript(position:) _modify", { array, position in array[position].title += "!" }),
      ("subscript(position:) set", { array, position in array[position] = Todo(id: position) }),
      ("updateOrAppend", { array, position in array.updateOrAppend(Todo(id: position)) }),
      ("update(_:at:)", { array, position in array.update(Todo(id: position), at: position) }),
      (
        "modify through inout",
        { array, position in
          func touch(_ todo: inout Todo) { todo.isComplete.toggle() }
          touch(&array[position])
        }
      ),
    ]
  }

  @Test(
    "Mutating one element of a shared array copies only its chunk and keeps the id index",
    arguments: [
      0, 1, chunkSize - 1, chunkSize, chunkSize + 1, 500, lastChunkStart - 1, lastChunkStart, 999,
    ]
  )
  func oneElementCopiesOneChunk(position: Int) {
    let original = todos(0..<1_000)
    let originalElements = original.elements
    for (name, mutate) in Self.elementMutations {
      var array = original
      mutate(&array, position)
      let range = chunkRange(of: position, count: 1_000)
      #expect(array._positionsThatMayDiffer(from: original) == [range], "\(name)")
      #expect(range.contains(position))
      #expect(range.count == (position < lastChunkStart ? chunkSize : 1_000 - lastChunkStart))
      #expect(original._positionsThatMayDiffer(from: array) == [range], "\(name)")
      // Value semantics: the original copy is unchanged.
      #expect(original.elements == originalElements, "\(name)")
      #expect(sharesIDIndex(array, original), "\(name)")
      #expect(!array._isIdentical(to: original))
      #expect(isConsistent(array))

      // Mutating again, now that the array's chunk is its own, copies nothing more.
      mutate(&array, position)
      #expect(array._positionsThatMayDiffer(from: original) == [range], "\(name)")
    }
  }

  @Test("Mutations in several chunks are reported per chunk, adjacent chunks merged")
  func severalChunks() {
    let original = todos(0..<1_000)
    var array = original
    // Chunks 0 and 1 (adjacent: one range), chunk 5, and the last chunk.
    array[id: 3]?.isComplete = true
    array[id: chunkSize + 2]?.isComplete = true
    array[id: 5 * chunkSize + 1]?.isComplete = true
    array[id: 999]?.isComplete = true
    #expect(
      array._positionsThatMayDiffer(from: original)
        == [0..<(2 * chunkSize), (5 * chunkSize)..<(6 * chunkSize), lastChunkStart..<1_000]
    )
    array.swapAt(1, 2)
    #expect(array._positionsThatMayDiffer(from: original) == nil)
  }

  @Test("_positionsThatMayDiffer is [] for an unchanged copy and for empty arrays")
  func unchanged() {
    let array = todos(0..<1_000)
    let copy = array
    #expect(copy._positionsThatMayDiffer(from: array) == [])
    #expect(array._positionsThatMayDiffer(from: array) == [])
    #expect(IdentifiedArrayOf<Todo>()._positionsThatMayDiffer(from: []) == [])
    // Separately built arrays share nothing: everything may differ.
    #expect(todos(0..<1_000)._positionsThatMayDiffer(from: array) == [0..<1_000])
    #expect(todos(0..<1_000) == array)
  }

  @Test("_positionsThatMayDiffer is nil after an insertion, a removal or a reordering")
  func structuralChanges() {
    let original = todos(0..<1_000)
    let changes: [(String, (inout IdentifiedArrayOf<Todo>) -> Void)] = [
      ("append", { $0.append(Todo(id: 1_000)) }),
      ("insert", { $0.insert(Todo(id: -1), at: 500) }),
      ("subscript(id:) append", { $0[id: 2_000] = Todo(id: 2_000) }),
      ("remove(id:)", { $0.remove(id: 500) }),
      ("remove(at:)", { _ = $0.remove(at: 0) }),
      ("subscript(id:) = nil", { $0[id: 999] = nil }),
      ("removeAll(where:)", { $0.removeAll { $0.id % 100 == 0 } }),
      ("move", { $0.move(fromOffsets: [3], toOffset: 900) }),
      ("swapAt", { $0.swapAt(10, 20) }),
      ("sort", { $0.sort { $0.id > $1.id } }),
      ("reverse", { $0.reverse() }),
      ("id changed in place", { array in _ = withIssueCapture { array[id: 5]?.id = 5_000 } }),
    ]
    for (name, change) in changes {
      var array = original
      change(&array)
      #expect(array._positionsThatMayDiffer(from: original) == nil, "\(name)")
      #expect(original._positionsThatMayDiffer(from: array) == nil, "\(name)")
      #expect(original == todos(0..<1_000), "\(name)")
      #expect(isConsistent(array), "\(name)")
    }
  }

  @Test("After an insertion and its removal, the shifted chunks are the ones that may differ")
  func insertionUndone() {
    let original = todos(0..<1_000)
    var array = original
    array.insert(Todo(id: -1), at: 700)
    array.remove(id: -1)
    #expect(array == original)
    #expect(array._positionsThatMayDiffer(from: original) == [(700 / chunkSize * chunkSize)..<1_000])
    // Moving elements onto their own place leaves every chunk shared.
    var moved = original
    moved.move(fromOffsets: [3], toOffset: 4)
    #expect(moved._positionsThatMayDiffer(from: original) == [])
  }

  @Test("Appending or removing at the end leaves the earlier chunks shared")
  func endChangesShareEarlierChunks() {
    let original = todos(0..<1_000)
    var array = original
    array.append(Todo(id: 1_000))
    array.removeLast()
    #expect(array._positionsThatMayDiffer(from: original) == [lastChunkStart..<1_000])
    array = original
    array.removeLast(100)
    array.append(contentsOf: (900..<1_000).map { Todo(id: $0, title: "\($0)") })
    #expect(array == original)
    #expect(array._positionsThatMayDiffer(from: original) == [(900 / chunkSize * chunkSize)..<1_000])
  }

  @Test("== compares only the chunks the two arrays do not share")
  func equalityComparesUnsharedChunks() {
    let comparisons = ComparisonCount()
    let original = IdentifiedArray(
      uniqueElements: (0..<1_000).map { Counted(id: $0, comparisons: comparisons) }
    )
    var array = original
    let position = 2 * chunkSize + 2
    array[id: position]?.value = 1
    comparisons.reset()
    #expect(array != original)
    // The mutated chunk starts two positions before it: those two are equal, the third is not.
    #expect(comparisons.count == 3)

    array[id: position]?.value = 0
    comparisons.reset()
    #expect(array == original)
    #expect(comparisons.count == chunkSize)

    comparisons.reset()
    #expect(array == array)
    #expect(comparisons.count == 0)
  }

  // MARK: Behaviour across chunks

  @Test("Insertions and removals across chunk boundaries keep the order and the ids")
  func insertionsAndRemovals() {
    var array = todos(0..<200)
    var model = Array(0..<200)
    let boundaries = [0, chunkSize - 1, chunkSize, chunkSize + 1, 2 * chunkSize, 150, 203, 204]
    for (offset, position) in boundaries.enumerated() {
      let id = 1_000 + offset
      #expect(array.insert(Todo(id: id), at: position) == (true, position))
      model.insert(id, at: position)
    }
    #expect(array.map(\.id) == model)
    for position in [0, chunkSize - 1, chunkSize, 2 * chunkSize - 1, 2 * chunkSize, 199, 150, 0] {
      #expect(array.remove(at: position).id == model.remove(at: position))
    }
    #expect(array.map(\.id) == model)
    while let last = array.popLast() {
      #expect(last.id == model.removeLast())
    }
    #expect(array.isEmpty && model.isEmpty && isConsistent(array))
    array.append(Todo(id: 1))
    #expect(array.ids == [1])
  }

  @Test("Bulk removals, moves, sorting and filtering agree with a plain array")
  func bulkOperations() {
    let original = todos(0..<500)
    let ids = Array(0..<500)

    var array = original
    let offsets = [0, chunkSize - 1, chunkSize, chunkSize + 1, 200, 499]
    array.remove(atOffsets: IndexSet(offsets))
    #expect(array.map(\.id) == ids.filter { !offsets.contains($0) })

    array = original
    array.removeSubrange(60..<300)
    #expect(array.map(\.id) == Array(ids[..<60] + ids[300...]))
    #expect(array._positionsThatMayDiffer(from: original) == nil)

    array = original
    array.removeAll { $0.id % 3 == 0 }
    #expect(array.map(\.id) == ids.filter { $0 % 3 != 0 })

    array = original
    array.move(fromOffsets: IndexSet([1, 70, 140, 400]), toOffset: 300)
    var expected = ids.filter { ![1, 70, 140, 400].contains($0) }
    expected.insert(contentsOf: [1, 70, 140, 400], at: 300 - 3)
    #expect(array.map(\.id) == expected)

    array = original
    array.sort { ($0.id % 7, $0.id) < ($1.id % 7, $1.id) }
    #expect(array.map(\.id) == ids.sorted { ($0 % 7, $0) < ($1 % 7, $1) })

    array = original
    let pivot = array.partition { $0.id.isMultiple(of: 2) }
    #expect(pivot == 250)
    #expect(
      array.map(\.id) == ids.filter { !$0.isMultiple(of: 2) } + ids.filter { $0.isMultiple(of: 2) })

    let filtered: IdentifiedArrayOf<Todo> = original.filter { $0.id % 5 == 1 }
    #expect(filtered.map(\.id) == ids.filter { $0 % 5 == 1 })

    array = original
    array.removeAll(keepingCapacity: true)
    #expect(array.isEmpty)
    array.reserveCapacity(300)
    array.append(contentsOf: original)
    #expect(array == original)

    // None of it touched the original.
    #expect(original == todos(0..<500))
    for result in [array, filtered] {
      #expect(isConsistent(result))
    }
  }

  @Test("A sort whose predicate throws keeps every element")
  func throwingSort() {
    struct Stop: Error {}
    var array = todos(0..<300)
    var comparisons = 0
    #expect(throws: Stop.self) {
      try array.sort { lhs, rhs in
        comparisons += 1
        if comparisons == 200 { throw Stop() }
        return lhs.id * 7_919 % 300 < rhs.id * 7_919 % 300
      }
    }
    #expect(Set(array.map(\.id)) == Set(0..<300))
    #expect(isConsistent(array))
  }

  @Test("Changing an element's id in place across chunks is re-keyed, or dropped if taken")
  func idChangesAcrossChunks() {
    var array = todos(0..<300)
    let issues = withIssueCapture {
      array[id: 70]?.id = 1_000
      array[100].id = 5
    }
    #expect(issues.count == 2)
    #expect(array.count == 299)
    #expect(array[70].id == 1_000 && array[100].id == 101)
    #expect(isConsistent(array))
  }

  @Test("A 1,000-element array encodes as a plain array and decodes back")
  func codable() throws {
    let array = todos(0..<1_000)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = try encoder.encode(array)
    #expect(json == (try encoder.encode(array.elements)))
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: json)
    #expect(decoded == array)
    #expect(isConsistent(decoded))
    #expect(Set([decoded, array]).count == 1)
  }

  // MARK: Model test

  @Test("2,000 random operations agree with a plain array, across copies kept alive")
  func randomOperationsAgreeWithModel() {
    let live = LiveCount()
    do {
      var generator = SplitMix64(seed: 2_024)
      func random(_ range: Range<Int>) -> Int { Int.random(in: range, using: &generator) }
      func randomClosed(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
      }
      func make(_ id: Int) -> Item {
        Item(id: id, value: random(0..<1_000), lifetime: Lifetime(live))
      }

      var array = IdentifiedArray(uniqueElements: (0..<300).map(make))
      var model = array.elements
      /// Earlier versions and what they held then: mutating `array` must not change them.
      var snapshots: [(array: IdentifiedArray<Int, Item>, model: [Item])] = []
      let idRange = 0..<700

      func modelIndex(_ id: Int) -> Int? { model.firstIndex { $0.id == id } }

      var stepsOverSeveralChunks = 0
      for step in 0..<2_000 {
        let id = random(idRange)
        let operation = random(0..<26)
        switch operation {
        case 0:
          let item = make(id)
          let result = array.append(item)
          if let index = modelIndex(id) {
            #expect(result == (false, index))
          } else {
            #expect(result == (true, model.count))
            model.append(item)
          }
        case 1:
          let item = make(id)
          let position = randomClosed(0...model.count)
          let result = array.insert(item, at: position)
          if let index = modelIndex(id) {
            #expect(result == (false, index))
          } else {
            #expect(result == (true, position))
            model.insert(item, at: position)
          }
        case 2:
          let removed = array.remove(id: id)
          let expected = modelIndex(id).map { model.remove(at: $0) }
          #expect(removed == expected)
        case 3 where !model.isEmpty:
          let position = random(0..<model.count)
          let removed = array.remove(at: position)
          let expected = model.remove(at: position)
          #expect(removed == expected)
        case 4:
          let item = make(id)
          array[id: id] = item
          if let index = modelIndex(id) { model[index] = item } else { model.append(item) }
        case 5, 6, 7:
          // The common case: one element's non-id field changes, in place.
          array[id: id]?.value += 1
          if let index = modelIndex(id) { model[index].value += 1 }
        case 8:
          array[id: id] = nil
          if let index = modelIndex(id) { model.remove(at: index) }
        case 9 where !model.isEmpty:
          let position = random(0..<model.count)
          array[position].value -= 1
          model[position].value -= 1
        case 10 where !model.isEmpty:
          let position = random(0..<model.count)
          let item = Item(id: model[position].id, value: step, lifetime: Lifetime(live))
          array[position] = item
          model[position] = item
        case 11:
          let item = make(id)
          let original = array.updateOrAppend(item)
          if let index = modelIndex(id) {
            #expect(original == model[index])
            model[index] = item
          } else {
            #expect(original == nil)
            model.append(item)
          }
        case 12:
          let item = make(id)
          let position = randomClosed(0...model.count)
          let result = array.updateOrInsert(item, at: position)
          if let index = modelIndex(id) {
            #expect(result.originalMember == model[index] && result.index == index)
            model[index] = item
          } else {
            #expect(result.originalMember == nil && result.index == position)
            model.insert(item, at: position)
          }
        case 13 where !model.isEmpty:
          let i = random(0..<model.count)
          let j = random(0..<model.count)
          array.swapAt(i, j)
          model.swapAt(i, j)
        case 14:
          let offsets = IndexSet(
            (0..<randomClosed(0...4)).compactMap { _ in
              model.isEmpty ? nil : random(0..<model.count)
            })
          let destination = randomClosed(0...model.count)
          array.move(fromOffsets: offsets, toOffset: destination)
          let moving = offsets.map { model[$0] }
          model = model.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
          model.insert(contentsOf: moving, at: destination - offsets.count { $0 < destination })
        case 15 where step % 10 == 0:
          array.sort { ($0.value, $0.id) < ($1.value, $1.id) }
          model.sort { ($0.value, $0.id) < ($1.value, $1.id) }
        case 16:
          let divisor = randomClosed(20...60)
          array.removeAll { $0.id % divisor == id % divisor }
          model.removeAll { $0.id % divisor == id % divisor }
        case 17:
          let offsets = IndexSet(
            (0..<randomClosed(0...6)).compactMap { _ in
              model.isEmpty ? nil : random(0..<model.count)
            })
          array.remove(atOffsets: offsets)
          model = model.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
        case 18:
          let lower = randomClosed(0...model.count)
          let upper = Swift.min(model.count, lower + random(0..<80))
          array.removeSubrange(lower..<upper)
          model.removeSubrange(lower..<upper)
        case 19:
          let filtered = array.filter { $0.value % 3 == 0 }
          let expected = model.filter { $0.value % 3 == 0 }
          #expect(filtered.elements == expected && isConsistent(filtered))
        case 20:
          array.reverse()
          model.reverse()
        case 21:
          let pivot = array.partition { $0.id % 2 == 0 }
          let odd = model.filter { $0.id % 2 != 0 }
          model = odd + model.filter { $0.id % 2 == 0 }
          #expect(pivot == odd.count)
        case 22:
          // An id changed in place: re-keyed if the new id is free, dropped if it is taken.
          let newID = random(idRange)
          _ = withIssueCapture { array[id: id]?.id = newID }
          if let index = modelIndex(id), newID != id {
            if modelIndex(newID) != nil { model.remove(at: index) } else { model[index].id = newID }
          }
        case 23:
          snapshots.append((array, model))
          if snapshots.count > 4 { snapshots.removeFirst() }
        case 24 where !snapshots.isEmpty:
          // Go back to an earlier version, which then diverges from the copy kept.
          let snapshot = snapshots[random(0..<snapshots.count)]
          array = snapshot.array
          model = snapshot.model
        case 25:
          // Keep the array large enough to span several chunks.
          let items = (0..<random(0..<100)).map { _ in make(random(idRange)) }
          array.append(contentsOf: items)
          for item in items where modelIndex(item.id) == nil { model.append(item) }
        default:
          break
        }

        // Booleans, not the arrays, in the expectations: a failure then reads in a line, and the
        // test stops at the first step that goes wrong.
        let agrees =
          array.elements == model && array.ids.elements == model.map(\.id) && isConsistent(array)
        #expect(agrees, "step \(step), operation \(operation): the array disagrees with the model")
        var snapshotsAgree = true
        for (index, snapshot) in snapshots.enumerated() {
          let unchanged = snapshot.array.elements == snapshot.model
          #expect(unchanged, "step \(step), operation \(operation): snapshot \(index) changed")
          let equality = (array == snapshot.array) == (model == snapshot.model)
          #expect(equality, "step \(step), operation \(operation): == against snapshot \(index)")
          let positions = checkPositionsThatMayDiffer(
            array, model, from: snapshot.array, snapshot.model
          )
          #expect(positions == nil, "step \(step), operation \(operation), snapshot \(index)")
          snapshotsAgree = snapshotsAgree && unchanged && equality && positions == nil
        }
        if !agrees || !snapshotsAgree { break }
        if array.count > 2 * chunkSize { stepsOverSeveralChunks += 1 }
      }
      #expect(stepsOverSeveralChunks > 1_500, "the model test must span several chunks")
    }
    #expect(live.live == 0, "every element is destroyed exactly once")
  }
}

/// Checks `_positionsThatMayDiffer(from:)`: nil exactly when the length or the ids differ, and
/// otherwise chunk-aligned, sorted, merged ranges outside which every element is the old one.
///
/// - Returns: What is wrong, or `nil` if nothing is.
private func checkPositionsThatMayDiffer(
  _ array: IdentifiedArray<Int, Item>,
  _ model: [Item],
  from old: IdentifiedArray<Int, Item>,
  _ oldModel: [Item]
) -> String? {
  let structureChanged = model.map(\.id) != oldModel.map(\.id)
  guard let ranges = array._positionsThatMayDiffer(from: old) else {
    return structureChanged ? nil : "nil, but the ids are the same"
  }
  if structureChanged { return "\(ranges), but the ids differ" }
  var covered = Array(repeating: false, count: model.count)
  var previousEnd = -1
  for range in ranges {
    let aligned =
      range.lowerBound % chunkSize == 0
      && (range.upperBound % chunkSize == 0 || range.upperBound == model.count)
    guard
      aligned, range.lowerBound > previousEnd, range.upperBound <= model.count, !range.isEmpty
    else { return "\(ranges) are not sorted, merged, chunk-aligned ranges" }
    previousEnd = range.upperBound
    for position in range { covered[position] = true }
  }
  let changedOutside = model.indices.first { !covered[$0] && model[$0] != oldModel[$0] }
  return changedOutside.map { "\(ranges) leave out changed position \($0)" }
}
