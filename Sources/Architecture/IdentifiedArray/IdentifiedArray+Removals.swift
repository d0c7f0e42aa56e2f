import struct Foundation.IndexSet

extension IdentifiedArray {
  /// Removes and returns the element with this id, or returns `nil` if there is none.
  ///
  /// ```swift
  /// todos.remove(id: 2)  // the todo, now gone from the array
  /// ```
  ///
  /// - Complexity: O(`count`).
  @inlinable
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let index = self.index(id: id) else { return nil }
    return self.remove(at: index)
  }

  /// Removes and returns the element at `index`.
  ///
  /// - Complexity: O(`count`).
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    precondition(index >= 0 && index < self.count, "Index out of range")
    let element = self._uniqueAddress(index).move()
    self._closeHole(at: index)
    return element
  }

  /// Removes the elements at the given offsets, as SwiftUI's `onDelete` reports them.
  ///
  /// ```swift
  /// todos.remove(atOffsets: [0, 2])
  /// ```
  ///
  /// - Complexity: O(`count`).
  public mutating func remove(atOffsets offsets: IndexSet) {
    guard !offsets.isEmpty else { return }
    self._compact(keeping: self.indices.map { !offsets.contains($0) })
  }

  /// Removes the elements that satisfy the predicate, keeping the others in order.
  ///
  /// ```swift
  /// todos.removeAll(where: \.isComplete)
  /// ```
  ///
  /// If the predicate throws, no element is removed.
  ///
  /// - Complexity: O(`count`).
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    let keep = try self.map { try !shouldBeRemoved($0) }
    guard keep.contains(false) else { return }
    self._compact(keeping: keep)
  }

  /// Removes every element.
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    let capacity =
      keepCapacity
      ? Swift.max(self.count, self._storage._header.pointee.reserved)
      : 0
    self = Self(
      id: self.id,
      idOf: self._storage.withUnsafeMutablePointerToHeader { $0.pointee.idOf },
      capacity: capacity
    )
  }

  /// Removes the elements in the range.
  ///
  /// - Complexity: O(`count`).
  public mutating func removeSubrange(_ bounds: Range<Int>) {
    precondition(bounds.lowerBound >= 0 && bounds.upperBound <= self.count, "Range out of bounds")
    guard !bounds.isEmpty else { return }
    self._compact(keeping: self.indices.map { !bounds.contains($0) })
  }

  /// Removes and returns the first element.
  ///
  /// - Precondition: The array is not empty.
  @discardableResult
  public mutating func removeFirst() -> Element {
    precondition(!self.isEmpty, "Can't remove first element from an empty collection")
    return self.remove(at: 0)
  }

  /// Removes the first `k` elements.
  public mutating func removeFirst(_ k: Int) {
    precondition(k >= 0 && k <= self.count, "Can't remove more items from a collection than it has")
    self.removeSubrange(0..<k)
  }

  /// Removes and returns the last element.
  ///
  /// - Precondition: The array is not empty.
  @discardableResult
  public mutating func removeLast() -> Element {
    precondition(!self.isEmpty, "Can't remove last element from an empty collection")
    return self.remove(at: self.count - 1)
  }

  /// Removes the last `k` elements.
  public mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= self.count, "Can't remove more items from a collection than it has")
    self.removeSubrange((self.count - k)..<self.count)
  }

  /// Removes and returns the last element, or returns `nil` if the array is empty.
  public mutating func popLast() -> Element? {
    self.isEmpty ? nil : self.remove(at: self.count - 1)
  }
}
