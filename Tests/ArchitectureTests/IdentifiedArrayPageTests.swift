import Foundation
import Testing

@testable import Architecture

// The identified array's chunks of elements are grouped in copy-on-write pages, behind a top
// table of page references, so that mutating one element of a shared array copies the top table,
// one page and one chunk, whatever the array's size. These tests check the structure at and across
// page boundaries, that copies stay independent, and that the recorder's diff skips shared pages.
// Positions are written in terms of the chunk and page sizes, so that they stay at the boundaries
// whatever sizes the storage uses.

private let chunkSize = _IdentifiedArrayChunks.size
private let pageSize = _IdentifiedArrayChunks.pageSize
/// The number of elements one full page holds.
private let pageElements = chunkSize * pageSize

private struct Todo: Identifiable, Equatable {
  var id: Int
  var value = 0
}

private struct Tracked: Identifiable {
  var id: Int
  var lifetime: Lifetime
}

private func todos(_ ids: Range<Int>) -> IdentifiedArrayOf<Todo> {
  IdentifiedArray(uniqueElements: ids.map { Todo(id: $0) })
}

/// The positions of the chunk that holds `position` in an array of `count` elements.
private func chunkRange(of position: Int, count: Int) -> Range<Int> {
  let start = position / chunkSize * chunkSize
  return start..<min(start + chunkSize, count)
}

/// Three full pages, and a fourth holding one full chunk and a partial one.
private let fourPages = 3 * pageElements + chunkSize + 3

/// Checks the storage's invariants: as many pages and chunks as `count` needs, every page and
/// chunk full except the last, none empty, capacities within their bounds, and the id index in
/// step with the elements.
///
/// - Returns: What is wrong, or `nil` if nothing is.
private func structureProblem<ID, Element>(_ array: IdentifiedArray<ID, Element>) -> String? {
  let storage = array._storage
  let count = array.count
  let chunkCount = _IdentifiedArrayChunks.chunkCount(holding: count)
  let pageCount = _IdentifiedArrayChunks.pageCount(holdingChunks: chunkCount)
  guard storage.pageCount == pageCount, pageCount <= storage._header.pointee.capacity else {
    return
      "count \(count): \(storage.pageCount) pages, room for \(storage._header.pointee.capacity)"
  }
  var elements = 0
  for page in 0..<pageCount {
    let header = storage.pages[page]._header.pointee
    let expected = Swift.min(pageSize, chunkCount - page * pageSize)
    guard header.count == expected, header.count <= header.capacity, header.capacity <= pageSize
    else {
      return "count \(count): page \(page) holds \(header.count) chunks of \(header.capacity)"
    }
    for slot in 0..<header.count {
      let chunk = page * pageSize + slot
      let chunkHeader = storage.pages[page].chunks[slot]._header.pointee
      let expected = Swift.min(chunkSize, count - chunk * chunkSize)
      guard chunkHeader.count == expected, chunkHeader.count <= chunkHeader.capacity,
        chunkHeader.capacity <= chunkSize
      else { return "count \(count): chunk \(chunk) holds \(chunkHeader.count)" }
      elements += chunkHeader.count
    }
  }
  guard elements == count, array.ids.count == count else {
    return "count \(count): \(elements) elements in chunks, \(array.ids.count) ids"
  }
  let ids = array.map { $0[keyPath: array.id] }
  guard array.ids.elements == ids, ids.indices.allSatisfy({ array.index(id: ids[$0]) == $0 }) else {
    return "count \(count): the id index disagrees with the elements"
  }
  return nil
}

/// The indices of the pages, and of the chunks, that `lhs` does not share with `rhs`.
private func unsharedPagesAndChunks<ID, Element>(
  _ lhs: IdentifiedArray<ID, Element>,
  _ rhs: IdentifiedArray<ID, Element>
) -> (pages: [Int], chunks: [Int]) {
  var pages: [Int] = []
  var chunks: [Int] = []
  for page in 0..<Swift.min(lhs._storage.pageCount, rhs._storage.pageCount) {
    let lhsPage = lhs._storage.pages[page]
    let rhsPage = rhs._storage.pages[page]
    if lhsPage === rhsPage { continue }
    pages.append(page)
    for slot in 0..<Swift.min(lhsPage._header.pointee.count, rhsPage._header.pointee.count)
    where lhsPage.chunks[slot] !== rhsPage.chunks[slot] {
      chunks.append(page * pageSize + slot)
    }
  }
  return (pages, chunks)
}

@Suite("IdentifiedArray pages")
struct IdentifiedArrayPageTests {
  @Test("A page holds 256 elements, 16 chunks of 16, as the storage docs say")
  func sizes() {
    #expect(chunkSize == 16 && pageSize == 16 && pageElements == 256)
    #expect(_IdentifiedArrayChunks.chunkCount(holding: 0) == 0)
    #expect(_IdentifiedArrayChunks.chunkCount(holding: chunkSize) == 1)
    #expect(_IdentifiedArrayChunks.chunkCount(holding: chunkSize + 1) == 2)
    #expect(_IdentifiedArrayChunks.pageCount(holdingChunks: 0) == 0)
    #expect(_IdentifiedArrayChunks.pageCount(holdingChunks: pageSize) == 1)
    #expect(_IdentifiedArrayChunks.pageCount(holdingChunks: pageSize + 1) == 2)
  }

  @Test(
    "Mutating one element of a shared array copies one page and one chunk, at page boundaries",
    arguments: [
      0, pageElements - 1, pageElements, pageElements + chunkSize - 1, pageElements + chunkSize,
      2 * pageElements - 1, 2 * pageElements, 3 * pageElements - 1, 3 * pageElements,
      fourPages - 1,
    ]
  )
  func oneElementCopiesOnePageAndOneChunk(position: Int) {
    let original = todos(0..<fourPages)
    var array = original
    array[id: position]?.value = 1
    let chunk = position / chunkSize
    #expect(unsharedPagesAndChunks(array, original) == ([chunk / pageSize], [chunk]))
    #expect(
      array._positionsThatMayDiffer(from: original) == [chunkRange(of: position, count: fourPages)])
    #expect(original.allSatisfy { $0.value == 0 })
    #expect(array[position].value == 1 && array.count { $0.value != 0 } == 1)
    #expect(structureProblem(array) == nil && structureProblem(original) == nil)

    // An element of the neighbouring chunk in the same page copies that chunk into the page the
    // array owns now; a page copied once is not copied again.
    let neighbour = position ^ chunkSize
    guard neighbour < fourPages else { return }
    // Its identity only: a reference would keep the page shared, and so copied.
    let page = ObjectIdentifier(array._storage.pages[chunk / pageSize])
    array[id: neighbour]?.value = 2
    #expect(ObjectIdentifier(array._storage.pages[chunk / pageSize]) == page)
    let chunks = [chunk, neighbour / chunkSize].sorted()
    #expect(unsharedPagesAndChunks(array, original) == ([chunk / pageSize], chunks))
    #expect(original.allSatisfy { $0.value == 0 } && structureProblem(array) == nil)
  }

  @Test("_positionsThatMayDiffer reports mutations in several pages, merged across a boundary")
  func positionsAcrossPages() {
    // Five pages, the last one partial.
    let count = 4 * pageElements + 3 * chunkSize + 5
    let original = todos(0..<count)
    var array = original
    array[id: 3]?.value = 1
    array[id: pageElements + 6]?.value = 1
    array[id: count - 1]?.value = 1
    let expected = [
      0..<chunkSize, pageElements..<(pageElements + chunkSize),
      chunkRange(of: count - 1, count: count),
    ]
    #expect(array._positionsThatMayDiffer(from: original) == expected)
    #expect(original._positionsThatMayDiffer(from: array) == expected)
    #expect(unsharedPagesAndChunks(array, original).pages == [0, 1, 4])
    #expect(unsharedPagesAndChunks(array, original).chunks == [0, pageSize, (count - 1) / chunkSize])

    // The last chunk of one page and the first of the next make one range.
    var adjacent = original
    adjacent[pageElements - 1].value = 1
    adjacent[pageElements].value = 1
    let boundary = (pageElements - chunkSize)..<(pageElements + chunkSize)
    #expect(adjacent._positionsThatMayDiffer(from: original) == [boundary])
    #expect(adjacent != original)
    adjacent[pageElements - 1].value = 0
    adjacent[pageElements].value = 0
    #expect(adjacent == original)
    #expect(adjacent._positionsThatMayDiffer(from: original) == [boundary])
  }

  @Test("Two copies mutated after sharing stay independent, in the same page and in others")
  func copiesStayIndependent() {
    // Two pages and a half, plus a partial chunk.
    let count = 2 * pageElements + pageElements / 2 + 4
    let original = todos(0..<count)
    // In the second chunk of the first page, the last chunk of the second page, the last element.
    let (a, b, last) = (chunkSize + 4, 2 * pageElements - 3, count - 1)
    var first = original
    var second = original
    first[id: a]?.value = 1
    second[id: a]?.value = 2
    second[id: a + 1]?.value = 3
    first[id: b]?.value = 4
    var third = second
    third[id: last]?.value = 5
    second.append(Todo(id: count))

    #expect(original.allSatisfy { $0.value == 0 })
    #expect(first[id: a]?.value == 1 && first[id: a + 1]?.value == 0)
    #expect(first[id: b]?.value == 4 && first[id: last]?.value == 0)
    #expect(second[id: a]?.value == 2 && second[id: a + 1]?.value == 3)
    #expect(second[id: b]?.value == 0 && second.count == count + 1)
    #expect(third[id: a]?.value == 2 && third[id: last]?.value == 5 && third.count == count)
    #expect(
      first._positionsThatMayDiffer(from: original)
        == [chunkRange(of: a, count: count), chunkRange(of: b, count: count)])
    #expect(
      third._positionsThatMayDiffer(from: original)
        == [chunkRange(of: a, count: count), chunkRange(of: last, count: count)])
    #expect(second._positionsThatMayDiffer(from: third) == nil)
    for array in [original, first, second, third] {
      #expect(structureProblem(array) == nil)
    }
  }

  @Test("Growing one element at a time across page boundaries keeps every page full but the last")
  func growing() {
    var array = IdentifiedArrayOf<Todo>()
    var problems: [String] = []
    var snapshots: [IdentifiedArrayOf<Todo>] = []
    for id in 0..<(2 * pageElements + 100) {
      array.append(Todo(id: id))
      if let problem = structureProblem(array) { problems.append(problem) }
      if id % 300 == 0 { snapshots.append(array) }
    }
    #expect(problems.isEmpty, "\(problems.prefix(3))")
    #expect(array.map(\.id) == Array(0..<(2 * pageElements + 100)))
    // The earlier versions kept alive were not disturbed by the appends that followed.
    for (index, snapshot) in snapshots.enumerated() {
      #expect(snapshot.map(\.id) == Array(0...(index * 300)))
    }
  }

  @Test("Inserting at the front of a shared array shifts elements across pages, not the copy's")
  func insertingAtTheFront() {
    let original = todos(0..<(pageElements + 1))
    var array = original
    array.insert(Todo(id: -1), at: 0)
    #expect(array.map(\.id) == [-1] + Array(0...pageElements))
    #expect(original.map(\.id) == Array(0...pageElements))
    #expect(structureProblem(array) == nil && structureProblem(original) == nil)
    #expect(array._storage.pageCount == 2)
    array.removeFirst()
    #expect(array == original)
    #expect(array._positionsThatMayDiffer(from: original) == [0..<(pageElements + 1)])
  }

  @Test("Shrinking across page boundaries drops the emptied pages and destroys their elements")
  func shrinking() {
    let live = LiveCount()
    do {
      let original = IdentifiedArray(
        uniqueElements: (0..<(3 * pageElements)).map { Tracked(id: $0, lifetime: Lifetime(live)) }
      )
      // Removing one element at a time, from a copy, across two page boundaries.
      var array = original
      var problems: [String] = []
      while array.count > pageElements - 10 {
        array.removeLast()
        if let problem = structureProblem(array) { problems.append(problem) }
      }
      #expect(problems.isEmpty, "\(problems.prefix(3))")
      #expect(array._storage.pageCount == 1)
      #expect(live.live == 3 * pageElements)

      // Bulk removals that end exactly at, just before and just after a page boundary.
      for kept in [pageElements, pageElements - 1, pageElements + 1, 2 * pageElements, 0] {
        var array = original
        array.removeSubrange(kept..<array.count)
        #expect(array.count == kept && structureProblem(array) == nil, "kept \(kept)")
        #expect(array.map(\.id) == Array(0..<kept))
      }
      // Removals through the middle of the pages: one element in every page, from the front.
      array = original
      array.removeAll { $0.id % pageElements == 5 }
      #expect(array.count == 3 * pageElements - 3 && structureProblem(array) == nil)
      array.remove(at: 0)
      array.remove(at: pageElements)
      #expect(array.count == 3 * pageElements - 5 && structureProblem(array) == nil)
      array.removeAll()
      #expect(array.isEmpty && structureProblem(array) == nil)
      #expect(original.count == 3 * pageElements && structureProblem(original) == nil)
      #expect(live.live == 3 * pageElements)
    }
    #expect(live.live == 0, "every element is destroyed exactly once")
  }

  @Test("Reserving room sizes the first page and chunk, and keeps the structure")
  func reserving() {
    var array = IdentifiedArrayOf<Todo>()
    array.reserveCapacity(5_000)
    let pages = _IdentifiedArrayChunks.pageCount(
      holdingChunks: _IdentifiedArrayChunks.chunkCount(holding: 5_000))
    #expect(array._storage._header.pointee.capacity >= pages)
    array.append(Todo(id: 0))
    #expect(array._storage.pages[0]._header.pointee.capacity == pageSize)
    #expect(array._storage.pages[0].chunks[0]._header.pointee.capacity == chunkSize)
    array.append(contentsOf: (1..<5_000).map { Todo(id: $0) })
    #expect(structureProblem(array) == nil && array.map(\.id) == Array(0..<5_000))

    array.removeAll(keepingCapacity: true)
    #expect(array._storage._header.pointee.capacity >= pages && structureProblem(array) == nil)

    // Without a reservation, a small array's first page and chunk start small.
    var small = IdentifiedArrayOf<Todo>()
    small.append(Todo(id: 0))
    #expect(small._storage.pages[0]._header.pointee.capacity == 1)
    #expect(small._storage.pages[0].chunks[0]._header.pointee.capacity == 4)
  }

  @Test(
    "Iterating walks every element once, in order, at chunk and page boundaries",
    arguments: [
      0, 1, chunkSize - 1, chunkSize, chunkSize + 1, pageElements - 1, pageElements,
      pageElements + 1, 2 * pageElements + chunkSize + 1,
    ]
  )
  func iterating(count: Int) {
    let array = todos(0..<count)
    var ids: [Int] = []
    for todo in array { ids.append(todo.id) }
    #expect(ids == Array(0..<count))
    // The iterator keeps returning nil once done.
    var iterator = array.makeIterator()
    while iterator.next() != nil {}
    #expect(iterator.next() == nil && iterator.next() == nil)
    // The other ways in which a sequence is walked.
    #expect(Array(array).map(\.id) == Array(0..<count))
    var forEachIDs: [Int] = []
    array.forEach { forEachIDs.append($0.id) }
    #expect(forEachIDs == ids && array.reduce(0) { $0 + $1.id } == ids.reduce(0, +))
    #expect(array.elements.map(\.id) == ids)
  }

  @Test("An iterator walks the array as it was when the loop started, whatever the loop mutates")
  func iteratingWhileMutating() {
    let count = pageElements + chunkSize + 1
    var array = todos(0..<count)
    var seen: [Todo] = []
    for todo in array {
      seen.append(todo)
      // Mutations through every path that writes in place, and ones that grow and shrink.
      array[id: todo.id]?.value += 1
      if todo.id + 1 < count { array[todo.id + 1].value += 10 }
      if todo.id == 3 { array.append(Todo(id: count)) }
      if todo.id == count - 1 { array.removeFirst(chunkSize) }
    }
    #expect(seen.map(\.id) == Array(0..<count))
    #expect(seen.allSatisfy { $0.value == 0 }, "the loop saw the elements it started with")
    #expect(array.map(\.id) == Array(chunkSize...count) && structureProblem(array) == nil)
    #expect(array.allSatisfy { $0.value == ($0.id == count ? 0 : 11) })
  }

  @Test("Sorting, moving and compacting a shared array across pages keeps both consistent")
  func reorderingAcrossPages() {
    let original = todos(0..<(2 * pageElements + 7))
    var array = original
    array.sort { $0.id % 5 == $1.id % 5 ? $0.id < $1.id : $0.id % 5 < $1.id % 5 }
    #expect(array.map(\.id) == original.map(\.id).sorted { ($0 % 5, $0) < ($1 % 5, $1) })
    #expect(structureProblem(array) == nil)
    array = original
    array.move(
      fromOffsets: IndexSet([3, pageElements, 2 * pageElements]),
      toOffset: pageElements + pageElements / 2)
    #expect(Set(array.map(\.id)) == Set(original.map(\.id)) && structureProblem(array) == nil)
    #expect(array._positionsThatMayDiffer(from: original) == nil)
    array = original
    array.remove(atOffsets: IndexSet(integersIn: (pageElements - 3)..<(pageElements + 3)))
    #expect(array.count == original.count - 6 && structureProblem(array) == nil)
    #expect(original == todos(0..<(2 * pageElements + 7)) && structureProblem(original) == nil)
  }
}
