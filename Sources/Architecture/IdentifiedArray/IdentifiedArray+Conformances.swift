extension IdentifiedArray: Equatable where Element: Equatable {
  /// Two arrays are equal when they hold equal elements in the same order.
  ///
  /// Copies share their pages and chunks of elements until one of them writes to one, and a
  /// shared page or chunk is equal to itself: only the chunks that are not shared have their
  /// elements compared. Comparing two versions of an array that differ by one mutated element
  /// compares one chunk's elements.
  ///
  /// - Complexity: O(1) when both share storage; otherwise O(*p* + *c*) for *p* pages and *c*
  ///   chunks in the pages that are not shared, plus O(`count`) at most for the chunks that are
  ///   not shared.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if lhs._storage === rhs._storage { return true }
    let count = lhs.count
    guard count == rhs.count else { return false }
    let lhsPages = lhs._storage.pages
    let rhsPages = rhs._storage.pages
    let chunkCount = _IdentifiedArrayChunks.chunkCount(holding: count)
    let pageSize = _IdentifiedArrayChunks.pageSize
    for page in 0..<lhs._storage.pageCount where lhsPages[page] !== rhsPages[page] {
      // Pointers, not page references: holding one would retain it.
      let lhsChunks = lhsPages[page].chunks
      let rhsChunks = rhsPages[page].chunks
      for slot in 0..<Swift.min(pageSize, chunkCount - page * pageSize)
      where lhsChunks[slot] !== rhsChunks[slot] {
        let lhsElements = lhsChunks[slot].elements
        let rhsElements = rhsChunks[slot].elements
        for offset in 0..<lhsChunks[slot]._header.pointee.count
        where lhsElements[offset] != rhsElements[offset] {
          return false
        }
      }
    }
    return true
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.count)
    for element in self {
      hasher.combine(element)
    }
  }
}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements in brackets, like an array's description: `[Todo(id: 1, …), Todo(id: 2, …)]`.
  public var description: String {
    self.elements.description
  }
}

extension IdentifiedArray: CustomDebugStringConvertible {
  /// The type and the elements: `IdentifiedArray<Int, Todo>([Todo(id: 1, …)])`.
  public var debugDescription: String {
    "IdentifiedArray<\(String(reflecting: ID.self)), \(String(reflecting: Element.self))>"
      + "(\(self.elements.debugDescription))"
  }
}

extension IdentifiedArray: CustomReflectable {
  /// A mirror of the elements as a collection, as `dump` and state-diffing tools show an array.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: self.elements, displayStyle: .collection)
  }
}
