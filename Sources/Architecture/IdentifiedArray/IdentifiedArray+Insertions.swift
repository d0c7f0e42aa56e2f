extension IdentifiedArray {
  /// Appends the element unless an element with its id is already present.
  ///
  /// ```swift
  /// todos.append(Todo(id: 3))  // (inserted: true, index: 2)
  /// todos.append(Todo(id: 3))  // (inserted: false, index: 2); unchanged
  /// ```
  ///
  /// - Returns: Whether the element was inserted, and the index of the element with its id.
  /// - Complexity: O(1) on average (amortized).
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    self.insert(element, at: self.count)
  }

  /// Appends the elements whose ids are not present yet, in order.
  public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
    self.reserveCapacity(self.count + elements.underestimatedCount)
    for element in elements {
      self.append(element)
    }
  }

  /// Inserts the element at `index` unless an element with its id is already present.
  ///
  /// ```swift
  /// todos.insert(Todo(id: 0), at: 0)  // (inserted: true, index: 0)
  /// ```
  ///
  /// - Returns: Whether the element was inserted, and the index of the element with its id (the
  ///   existing one's when it was not inserted).
  /// - Complexity: O(`count`).
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    let id = self._idOf(element)
    if let existing = self.index(id: id) { return (false, existing) }
    self._insert(element, id: id, at: index)
    return (true, index)
  }

  /// Replaces the element with the same id, or appends the element if there is none.
  ///
  /// - Returns: The element replaced, or `nil` if the element was appended.
  /// - Complexity: O(1) on average (amortized).
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    self.updateOrInsert(element, at: self.count).originalMember
  }

  /// Replaces the element with the same id, or inserts the element at `index` if there is none.
  ///
  /// - Returns: The element replaced (`nil` if the element was inserted), and the element's index.
  /// - Complexity: O(1) on average to replace, O(`count`) to insert.
  @discardableResult
  public mutating func updateOrInsert(
    _ element: Element,
    at index: Int
  ) -> (originalMember: Element?, index: Int) {
    let id = self._idOf(element)
    if let existing = self.index(id: id) {
      let address = self._uniqueAddress(existing)
      let original = address.move()
      address.initialize(to: element)
      return (original, existing)
    }
    self._insert(element, id: id, at: index)
    return (nil, index)
  }

  /// Replaces the element at `index` with one that has the same id.
  ///
  /// An element with another id is reported as an issue and not stored.
  ///
  /// - Returns: The element that was at `index` (and still is, if the ids differ).
  @discardableResult
  public mutating func update(_ element: Element, at index: Int) -> Element {
    let original = self[index]
    self[index] = element
    return original
  }
}
