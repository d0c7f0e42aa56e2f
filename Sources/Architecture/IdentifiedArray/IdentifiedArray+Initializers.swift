extension IdentifiedArray {
  /// Creates an array of a sequence's elements, identified by the key path; the ids should be
  /// unique.
  ///
  /// ```swift
  /// let numbers = IdentifiedArray(uniqueElements: [1, 2, 3], id: \.self)
  /// ```
  ///
  /// A duplicate id is reported as an issue (a test failure under a test runner), and only the
  /// first element with that id is kept.
  ///
  /// - Complexity: O(*n*) on average.
  public init<S: Sequence>(
    uniqueElements elements: S,
    id: KeyPath<Element, ID>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where S.Element == Element {
    self.init(id: id, idOf: { $0[keyPath: id] }, capacity: elements.underestimatedCount)
    self._appendUnique(
      elements, fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Creates an array of a sequence's elements, identified by the key path, without reporting
  /// duplicates: the first element with each id is kept.
  ///
  /// Use it when the elements are known to be unique, such as another identified array's.
  public init<S: Sequence>(
    uncheckedUniqueElements elements: S,
    id: KeyPath<Element, ID>
  ) where S.Element == Element {
    self.init(id: id, idOf: { $0[keyPath: id] }, capacity: elements.underestimatedCount)
    self.append(contentsOf: elements)
  }

  /// Creates an array of a sequence's elements, identified by the key path, combining elements
  /// that share an id.
  ///
  /// ```swift
  /// let totals = IdentifiedArray(
  ///   [(name: "a", total: 1), (name: "a", total: 2)], id: \.name,
  ///   uniquingIDsWith: { ($0.name, $0.total + $1.total) }
  /// )  // [(name: "a", total: 3)]
  /// ```
  ///
  /// - Parameter combine: Given the element kept so far and a later one with the same id, returns
  ///   the element to keep, in the first one's place. It must keep the id.
  public init<S: Sequence>(
    _ elements: S,
    id: KeyPath<Element, ID>,
    uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows where S.Element == Element {
    self.init(id: id, idOf: { $0[keyPath: id] }, capacity: elements.underestimatedCount)
    try self._appendCombining(elements, combine)
  }
}

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// Creates an empty array.
  ///
  /// ```swift
  /// var todos = IdentifiedArrayOf<Todo>()
  /// ```
  public init() {
    self.init(id: \.id, idOf: { $0.id }, capacity: 0)
  }

  /// Creates an array of a sequence's elements; their ids should be unique.
  ///
  /// ```swift
  /// let todos = IdentifiedArray(uniqueElements: [Todo(id: 1), Todo(id: 2)])
  /// ```
  ///
  /// A duplicate id is reported as an issue (a test failure under a test runner), and only the
  /// first element with that id is kept.
  ///
  /// - Complexity: O(*n*) on average.
  public init<S: Sequence>(
    uniqueElements elements: S,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where S.Element == Element {
    self.init(id: \.id, idOf: { $0.id }, capacity: elements.underestimatedCount)
    self._appendUnique(
      elements, fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Creates an array of a sequence's elements without reporting duplicates: the first element
  /// with each id is kept.
  ///
  /// Use it when the elements are known to be unique, such as another identified array's.
  public init<S: Sequence>(uncheckedUniqueElements elements: S) where S.Element == Element {
    self.init(id: \.id, idOf: { $0.id }, capacity: elements.underestimatedCount)
    self.append(contentsOf: elements)
  }

  /// Creates an array of a sequence's elements, combining elements that share an id.
  ///
  /// - Parameter combine: Given the element kept so far and a later one with the same id, returns
  ///   the element to keep, in the first one's place. It must keep the id.
  public init<S: Sequence>(
    _ elements: S,
    uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows where S.Element == Element {
    self.init(id: \.id, idOf: { $0.id }, capacity: elements.underestimatedCount)
    try self._appendCombining(elements, combine)
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral
where Element: Identifiable, ID == Element.ID {
  /// Creates an array of the literal's elements; a duplicate id is reported and dropped.
  ///
  /// ```swift
  /// let todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2)]
  /// ```
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedArray {
  /// Appends the elements, reporting each one whose id is already present, and dropping it.
  mutating func _appendUnique<S: Sequence>(
    _ elements: S,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) where S.Element == Element {
    for (offset, element) in elements.enumerated() {
      let (inserted, index) = self.append(element)
      if !inserted {
        reportIssue(
          """
          Duplicate id \(String(reflecting: self._idOf(element))) at offset \(offset): \
          identified arrays need unique ids. The element at offset \(offset) was dropped, and \
          the first one with that id (now at index \(index)) kept.
          """,
          fileID: fileID,
          filePath: filePath,
          line: line,
          column: column
        )
      }
    }
  }

  /// Appends the elements, combining each one whose id is present with the element kept so far.
  mutating func _appendCombining<S: Sequence>(
    _ elements: S,
    _ combine: (Element, Element) throws -> Element
  ) rethrows where S.Element == Element {
    for element in elements {
      let id = self._idOf(element)
      if let index = self.index(id: id) {
        self[index] = try combine(self[index], element)
      } else {
        self._insert(element, id: id, at: self.count)
      }
    }
  }
}
