/// An ordered collection of unique elements with O(1) membership tests: the type of
/// ``IdentifiedArray/ids``.
///
/// Like swift-collections' `OrderedSet`, which TCA's identified arrays return their ids in, it
/// keeps insertion order, rejects duplicates and finds an element's index by hashing:
///
/// ```swift
/// var ids: OrderedSet = [3, 1, 2]
/// ids.append(1)          // (inserted: false, index: 1)
/// ids.contains(2)        // true, in O(1)
/// ids.firstIndex(of: 2)  // 2, in O(1)
/// ids.elements           // [3, 1, 2]
/// ```
public struct OrderedSet<Element: Hashable> {
  @usableFromInline var _elements: [Element]
  /// The index of each element in `_elements`.
  @usableFromInline var _positions: [Element: Int]

  /// Creates an empty set.
  @inlinable
  public init() {
    self._elements = []
    self._positions = [:]
  }

  /// Creates a set of a sequence's elements, in order, keeping the first of any duplicates.
  ///
  /// ```swift
  /// OrderedSet([2, 1, 2, 3])  // [2, 1, 3]
  /// ```
  public init<S: Sequence>(_ elements: S) where S.Element == Element {
    self.init()
    self._elements.reserveCapacity(elements.underestimatedCount)
    self._positions.reserveCapacity(elements.underestimatedCount)
    for element in elements {
      self.append(element)
    }
  }

  /// The elements, in order, as an array.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var elements: [Element] { self._elements }

  /// Returns whether the set contains the element.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func contains(_ element: Element) -> Bool {
    self._positions[element] != nil
  }

  /// Returns the index of the element, or `nil` if the set does not contain it.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func firstIndex(of element: Element) -> Int? {
    self._positions[element]
  }

  /// Returns the index of the element, or `nil` if the set does not contain it.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func lastIndex(of element: Element) -> Int? {
    self._positions[element]
  }

  /// Appends the element unless the set already contains it.
  ///
  /// - Returns: Whether the element was inserted, and its index in the set.
  /// - Complexity: O(1) on average.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    if let index = self._positions[element] { return (false, index) }
    self._positions[element] = self._elements.count
    self._elements.append(element)
    return (true, self._elements.count - 1)
  }

  /// Inserts the element at `index` unless the set already contains it.
  ///
  /// ```swift
  /// var ids: OrderedSet = [1, 3]
  /// ids.insert(2, at: 1)  // (inserted: true, index: 1); ids is [1, 2, 3]
  /// ids.insert(3, at: 0)  // (inserted: false, index: 2); unchanged
  /// ```
  ///
  /// - Returns: Whether the element was inserted, and its index in the set.
  /// - Complexity: O(`count`).
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    if let existing = self._positions[element] { return (false, existing) }
    precondition(index >= 0 && index <= self._elements.count, "Index out of range")
    self._elements.insert(element, at: index)
    self._renumber(from: index)
    return (true, index)
  }

  /// Removes the element, returning it, or returns `nil` if the set does not contain it.
  ///
  /// - Complexity: O(`count`).
  @inlinable
  @discardableResult
  public mutating func remove(_ element: Element) -> Element? {
    guard let index = self._positions[element] else { return nil }
    return self.remove(at: index)
  }

  /// Removes and returns the element at `index`.
  ///
  /// - Complexity: O(`count`).
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let element = self._elements.remove(at: index)
    self._positions[element] = nil
    self._renumber(from: index)
    return element
  }

  /// Removes every element.
  public mutating func removeAll(keepingCapacity: Bool = false) {
    self._elements.removeAll(keepingCapacity: keepingCapacity)
    self._positions.removeAll(keepingCapacity: keepingCapacity)
  }

  /// Removes the elements that satisfy the predicate, keeping the others in order.
  ///
  /// - Complexity: O(`count`).
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    try self._elements.removeAll(where: shouldBeRemoved)
    self._positions = [:]
    self._renumber(from: 0)
  }

  /// Replaces the element at `index` with one the set does not contain.
  @inlinable
  mutating func _replace(at index: Int, with element: Element) {
    self._positions[self._elements[index]] = nil
    self._elements[index] = element
    self._positions[element] = index
  }

  /// Exchanges the elements at two indices.
  @inlinable
  mutating func _swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    self._elements.swapAt(i, j)
    self._positions[self._elements[i]] = i
    self._positions[self._elements[j]] = j
  }

  /// Replaces the order of the elements with `reordered`, a permutation of them.
  @usableFromInline
  mutating func _reorder(_ reordered: [Element]) {
    self._elements = reordered
    self._renumber(from: 0)
  }

  /// Records the index of every element from `start` on.
  @inlinable
  mutating func _renumber(from start: Int) {
    for index in start..<self._elements.count {
      self._positions[self._elements[index]] = index
    }
  }
}

extension OrderedSet: RandomAccessCollection {
  /// The position of the first element: `0`.
  @inlinable public var startIndex: Int { 0 }
  /// The position one past the last element: `count`.
  @inlinable public var endIndex: Int { self._elements.count }
  /// The number of elements.
  @inlinable public var count: Int { self._elements.count }
  /// The valid indices, `0..<count`.
  @inlinable public var indices: Range<Int> { 0..<self._elements.count }

  /// The element at `position`.
  @inlinable
  public subscript(position: Int) -> Element {
    self._elements[position]
  }

  /// O(1) membership for the standard library's generic algorithms, such as `contains(_:)`.
  @inlinable
  public func _customContainsEquatableElement(_ element: Element) -> Bool? {
    self.contains(element)
  }

  /// O(1) lookup for the standard library's generic algorithms, such as `firstIndex(of:)`.
  @inlinable
  public func _customIndexOfEquatableElement(_ element: Element) -> Int?? {
    .some(self.firstIndex(of: element))
  }

  /// O(1) lookup for the standard library's generic algorithms, such as `lastIndex(of:)`.
  @inlinable
  public func _customLastIndexOfEquatableElement(_ element: Element) -> Int?? {
    .some(self.lastIndex(of: element))
  }
}

extension OrderedSet: ExpressibleByArrayLiteral {
  /// Creates a set of the literal's elements, keeping the first of any duplicates.
  ///
  /// ```swift
  /// let ids: OrderedSet = ["a", "b"]
  /// ```
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension OrderedSet: Equatable {
  /// Two sets are equal when they hold the same elements in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._elements == rhs._elements
  }
}

extension OrderedSet: Hashable {
  /// Hashes the elements in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self._elements)
  }
}

extension OrderedSet: Sendable where Element: Sendable {}

extension OrderedSet: CustomStringConvertible {
  /// The elements in brackets, like an array's description: `[1, 2, 3]`.
  public var description: String {
    self._elements.description
  }
}
