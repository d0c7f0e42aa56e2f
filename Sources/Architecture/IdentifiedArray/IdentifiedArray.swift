/// An ordered collection of elements with unique ids, with O(1) access to an element by its id.
///
/// TCA features keep their rows in one (`forEach` runs a child reducer on each element), as
/// swift-identified-collections provides them. Use it where you would use an array, and reach
/// elements by id, which stays valid when the array is reordered or shrinks:
///
/// ```swift
/// struct Todo: Identifiable, Equatable {
///   let id: Int
///   var title = ""
///   var isComplete = false
/// }
///
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs")]
/// todos[id: 2]?.isComplete = true      // mutate in place, O(1)
/// todos[id: 3] = Todo(id: 3)           // append
/// todos[id: 1] = nil                   // remove
/// todos.ids                            // [2, 3]
/// todos.index(id: 3)                   // 1
/// ```
///
/// Elements keep their order; indices are `0..<count`. No two elements share an id: `append` and
/// `insert` leave the array unchanged when the id is already present, and initializers keep the
/// first of any duplicates and report the rest (see ``init(uniqueElements:)``).
///
/// An element's id must not change while it is in the array. Writing an element with another id
/// through a subscript is reported as an issue (a test failure under a test runner): see
/// ``subscript(id:)`` and ``subscript(position:)`` for what the array does then.
///
/// Storage is copy-on-write: copies share one buffer until one of them is mutated.
public struct IdentifiedArray<ID: Hashable, Element> {
  @usableFromInline var _storage: IdentifiedArrayStorage<ID, Element>

  @inlinable
  init(_storage: IdentifiedArrayStorage<ID, Element>) {
    self._storage = _storage
  }

  /// Creates an empty array whose elements are identified by the key path.
  ///
  /// ```swift
  /// var numbers = IdentifiedArray(id: \Int.self)
  /// numbers.append(42)
  /// ```
  public init(id: KeyPath<Element, ID>) {
    self.init(id: id, idOf: { $0[keyPath: id] }, capacity: 0)
  }

  /// Creates an empty array with the given way of reading ids.
  @usableFromInline
  init(id: KeyPath<Element, ID>, idOf: @escaping (Element) -> ID, capacity: Int) {
    self._storage = IdentifiedArrayStorage.make(
      capacity: capacity, header: IdentifiedArrayHeader(idPath: id, idOf: idOf)
    )
  }

  /// The key path to an element's id.
  public var id: KeyPath<Element, ID> {
    self._storage.withUnsafeMutablePointerToHeader { $0.pointee.idPath }
  }

  /// The ids of the elements, in order.
  ///
  /// ```swift
  /// for id in todos.ids { … }
  /// todos.ids.contains(2)  // O(1)
  /// ```
  ///
  /// - Complexity: O(1).
  @inlinable
  public var ids: OrderedSet<ID> {
    self._storage.withUnsafeMutablePointerToHeader { $0.pointee.ids }
  }

  /// The elements, in order, as an array.
  ///
  /// - Complexity: O(`count`): the array is a copy.
  public var elements: [Element] {
    Array(UnsafeBufferPointer(start: self._storage.elements, count: self.count))
  }

  /// Returns the index of the element with this id, or `nil` if there is none.
  ///
  /// ```swift
  /// let todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2)]
  /// todos.index(id: 2)  // 1
  /// todos.index(id: 3)  // nil
  /// ```
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  public func index(id: ID) -> Int? {
    self._storage.withUnsafeMutablePointerToHeader { $0.pointee.ids.firstIndex(of: id) }
  }

  /// Accesses the element with the given id: reading, replacing, appending and removing by id.
  ///
  /// Reading returns `nil` when no element has the id. Assigning an element replaces the one with
  /// that id in place, or appends it if there is none; assigning `nil` removes the element.
  /// Mutating through the subscript mutates the element in place, without copying it or touching
  /// the id index:
  ///
  /// ```swift
  /// todos[id: 1]?.isComplete.toggle()  // O(1), in place
  /// todos[id: 9] = Todo(id: 9)         // appended
  /// todos[id: 9] = nil                 // removed
  /// ```
  ///
  /// An element's id must stay the id it is stored under. Assigning an element with another id
  /// (`todos[id: 1] = Todo(id: 2)`) reports an issue and leaves the array unchanged. Mutating an
  /// element's id through the subscript (`todos[id: 1]?.id = 2`) reports an issue; the element
  /// is then kept under its new id, or dropped if another element already has that id.
  ///
  /// - Complexity: O(1) on average to read, replace, mutate or append; O(`count`) to remove.
  public subscript(id id: ID) -> Element? {
    @inlinable
    get {
      guard let index = self.index(id: id) else { return nil }
      return self._storage.elements[index]
    }
    @inlinable
    set {
      let index = self.index(id: id)
      switch (index, newValue) {
      case (nil, nil):
        return
      case let (index?, nil):
        self.remove(at: index)
      case let (index, newValue?):
        guard self._idOf(newValue) == id else {
          reportIssue(
            """
            Element identity must remain constant: an element with id \
            \(String(reflecting: self._idOf(newValue))) was assigned to the id \
            \(String(reflecting: id)). The assignment was ignored.
            """
          )
          return
        }
        if let index {
          self._makeUnique()
          self._storage.elements[index] = newValue
        } else {
          self._insert(newValue, id: id, at: self.count)
        }
      }
    }
    @inlinable
    _modify {
      guard let index = self.index(id: id) else {
        var element: Element?
        yield &element
        if element != nil { self[id: id] = element }
        return
      }
      self._makeUnique()
      // Moved out, so that the caller mutates the only copy; moved back (or removed) after.
      var element: Element? = (self._storage.elements + index).move()
      defer { self._refill(index, with: element, id: id) }
      yield &element
    }
  }

  /// Returns whether both arrays share one buffer, which means they are equal, in O(1).
  ///
  /// `false` says nothing: equal arrays may have separate buffers. A recorder uses this to skip
  /// collections that did not change between two states, without comparing their elements.
  package func _isIdentical(to other: Self) -> Bool {
    self._storage === other._storage
  }
}

/// An identified array of `Identifiable` elements, identified by their `id`.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = []
/// ```
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray: @unchecked Sendable where ID: Sendable, Element: Sendable {}

// MARK: - Internals shared by the extensions

extension IdentifiedArray {
  /// The id of an element, as this array reads it.
  @inlinable
  func _idOf(_ element: Element) -> ID {
    self._storage.withUnsafeMutablePointerToHeader { $0.pointee.idOf }(element)
  }

  /// Makes the buffer unique to this array, with room for `additional` more elements.
  @inlinable
  mutating func _makeUnique(reservingCapacity additional: Int = 0) {
    let (count, capacity) = self._storage.withUnsafeMutablePointerToHeader {
      ($0.pointee.count, $0.pointee.capacity)
    }
    let needed = count + additional
    if isKnownUniquelyReferenced(&self._storage), needed <= capacity { return }
    self._reallocate(capacity: needed > capacity ? Swift.max(needed, 2 * capacity) : capacity)
  }

  /// Replaces the buffer with one of the given capacity: the elements are moved if the buffer is
  /// unique to this array, copied otherwise.
  @usableFromInline
  mutating func _reallocate(capacity: Int) {
    if isKnownUniquelyReferenced(&self._storage) {
      self._storage = self._storage.move(capacity: capacity)
    } else {
      self._storage = self._storage.copy(capacity: capacity)
    }
  }

  /// Inserts an element whose id is not in the array.
  @inlinable
  mutating func _insert(_ element: Element, id: ID, at index: Int) {
    precondition(index >= 0 && index <= self.count, "Index out of range")
    self._makeUnique(reservingCapacity: 1)
    self._storage.withUnsafeMutablePointers { header, elements in
      let count = header.pointee.count
      (elements + index + 1).moveInitialize(from: elements + index, count: count - index)
      (elements + index).initialize(to: element)
      header.pointee.count = count + 1
      header.pointee.ids.insert(id, at: index)
    }
  }

  /// Fills the hole left at `index` by `subscript(id:)`'s `_modify`, or closes it.
  @inlinable
  mutating func _refill(_ index: Int, with element: Element?, id: ID) {
    self._storage.withUnsafeMutablePointers { header, elements in
      if let element {
        (elements + index).initialize(to: element)
      } else {
        let count = header.pointee.count
        (elements + index).moveInitialize(from: elements + index + 1, count: count - index - 1)
        header.pointee.count = count - 1
        header.pointee.ids.remove(at: index)
      }
    }
    if let element, self._idOf(element) != id {
      self._identityChanged(at: index, from: id)
    }
  }

  /// Handles an element whose id was changed in place: reports it, then keeps the element under
  /// its new id if that id is free, and drops it otherwise.
  @usableFromInline
  mutating func _identityChanged(at index: Int, from oldID: ID) {
    let newID = self._idOf(self._storage.elements[index])
    let isTaken = self.index(id: newID) != nil
    let outcome =
      isTaken
      ? "Another element has that id, so the element was removed."
      : "It is now stored under its new id."
    reportIssue(
      """
      Element identity must remain constant: the element with id \(String(reflecting: oldID)) \
      at index \(index) was changed to have the id \(String(reflecting: newID)). \(outcome)
      """
    )
    self._storage.withUnsafeMutablePointers { header, elements in
      if isTaken {
        let count = header.pointee.count
        (elements + index).deinitialize(count: 1)
        (elements + index).moveInitialize(from: elements + index + 1, count: count - index - 1)
        header.pointee.count = count - 1
        header.pointee.ids.remove(at: index)
      } else {
        header.pointee.ids._replace(at: index, with: newID)
      }
    }
  }

  /// Rearranges the elements: the element at `order[i]` moves to index `i`.
  ///
  /// - Precondition: `order` is a permutation of the indices.
  @usableFromInline
  mutating func _permute(_ order: [Int]) {
    self._makeUnique()
    self._storage.withUnsafeMutablePointers { header, elements in
      let count = header.pointee.count
      let moved = UnsafeMutablePointer<Element>.allocate(capacity: count)
      defer { moved.deallocate() }
      moved.moveInitialize(from: elements, count: count)
      let ids = header.pointee.ids.elements
      for (target, source) in order.enumerated() {
        (elements + target).moveInitialize(from: moved + source, count: 1)
      }
      header.pointee.ids._reorder(order.map { ids[$0] })
    }
  }

  /// Keeps the elements at the indices `keep` says to keep, in order, and destroys the others.
  @usableFromInline
  mutating func _compact(keeping keep: [Bool]) {
    self._makeUnique()
    self._storage.withUnsafeMutablePointers { header, elements in
      let count = header.pointee.count
      let ids = header.pointee.ids.elements
      var kept = 0
      var keptIDs: [ID] = []
      keptIDs.reserveCapacity(count)
      for index in 0..<count {
        if keep[index] {
          if kept != index {
            (elements + kept).moveInitialize(from: elements + index, count: 1)
          }
          keptIDs.append(ids[index])
          kept += 1
        } else {
          (elements + index).deinitialize(count: 1)
        }
      }
      header.pointee.count = kept
      header.pointee.ids = OrderedSet(keptIDs)
    }
  }
}
