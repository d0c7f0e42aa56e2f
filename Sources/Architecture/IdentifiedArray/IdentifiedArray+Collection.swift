import struct Foundation.IndexSet

extension IdentifiedArray: RandomAccessCollection {
  /// The position of the first element: `0`.
  @inlinable public var startIndex: Int { 0 }

  /// The position one past the last element: `count`.
  @inlinable public var endIndex: Int { self.count }

  /// The number of elements.
  @inlinable
  public var count: Int {
    self._storage.withUnsafeMutablePointerToHeader { $0.pointee.count }
  }

  /// The valid indices, `0..<count`.
  @inlinable public var indices: Range<Int> { 0..<self.count }

  /// Walks the elements in order, chunk by chunk.
  ///
  /// Reaching an element by its position goes from the top table to a page, to a chunk, to the
  /// element; this iterator resolves each chunk once and then steps a pointer through it, so a
  /// `for` loop pays those lookups once per chunk rather than once per element.
  @frozen
  public struct Iterator: IteratorProtocol {
    /// Keeps the pages and chunks alive while the array the iterator came from is mutated: a
    /// mutation then finds them shared and copies what it writes to.
    @usableFromInline let _storage: IdentifiedArrayStorage<ID, Element>
    /// The next element of the current chunk, and the end of its elements.
    @usableFromInline var _next: UnsafeMutablePointer<Element>
    @usableFromInline var _end: UnsafeMutablePointer<Element>
    /// The index of the chunk after the current one, and the number of chunks.
    @usableFromInline var _chunk: Int
    @usableFromInline let _chunkCount: Int

    @inlinable
    init(_storage storage: IdentifiedArrayStorage<ID, Element>) {
      self._storage = storage
      self._chunkCount = _IdentifiedArrayChunks.chunkCount(holding: storage._header.pointee.count)
      self._chunk = 0
      // No current chunk: `next()` loads the first one. The pointer is never read through.
      let none = UnsafeMutableRawPointer(storage.pages).assumingMemoryBound(to: Element.self)
      self._next = none
      self._end = none
    }

    /// The next element, or `nil` after the last.
    @inlinable
    public mutating func next() -> Element? {
      if self._next == self._end {
        guard self._chunk < self._chunkCount else { return nil }
        let chunk = self._storage.chunkSlot(self._chunk).pointee
        self._next = chunk.elements
        self._end = self._next + chunk._header.pointee.count
        self._chunk &+= 1
      }
      defer { self._next += 1 }
      return self._next.pointee
    }
  }

  /// An iterator over the elements, in order.
  @inlinable
  public func makeIterator() -> Iterator {
    Iterator(_storage: self._storage)
  }
}

extension IdentifiedArray: MutableCollection {
  /// Accesses the element at a position; a written element must keep the id of the one it
  /// replaces.
  ///
  /// ```swift
  /// todos[0].title = "Buy milk"   // in place
  /// todos[0] = Todo(id: 7)        // reported, and ignored, unless todos[0].id is 7
  /// ```
  ///
  /// Assigning an element with another id reports an issue and leaves the array unchanged.
  /// Mutating an element's id in place (`todos[0].id = 7`) reports an issue; the element is then
  /// kept under its new id, or dropped if another element already has that id.
  public subscript(position: Int) -> Element {
    @inlinable
    get {
      precondition(position >= 0 && position < self.count, "Index out of range")
      return self._address(position).pointee
    }
    @inlinable
    set {
      precondition(position >= 0 && position < self.count, "Index out of range")
      let id = self.ids[position]
      guard self._idOf(newValue) == id else {
        reportIssue(
          """
          Element identity must remain constant: an element with id \
          \(String(reflecting: self._idOf(newValue))) was assigned at index \(position), which \
          holds the id \(String(reflecting: id)). The assignment was ignored.
          """
        )
        return
      }
      self._uniqueAddress(position).pointee = newValue
    }
    @inlinable
    _modify {
      precondition(position >= 0 && position < self.count, "Index out of range")
      // Only the element's chunk is made unique to this array: a copy shares the others.
      let address = self._uniqueAddress(position)
      let id = self.ids[position]
      defer {
        if self._idOf(address.pointee) != id {
          self._identityChanged(at: position, from: id)
        }
      }
      yield &address.pointee
    }
  }

  /// Exchanges the elements at two indices.
  ///
  /// - Complexity: O(1) when the storage is not shared.
  @inlinable
  public mutating func swapAt(_ i: Int, _ j: Int) {
    precondition(i >= 0 && i < self.count && j >= 0 && j < self.count, "Index out of range")
    guard i != j else { return }
    let first = self._uniqueAddress(i)
    let second = self._uniqueAddress(j)
    swap(&first.pointee, &second.pointee)
    self._storage.withUnsafeMutablePointerToHeader { header in
      header.pointee.ids._swapAt(i, j)
    }
  }

  /// Reorders the elements so that those matching the predicate come after the others, keeping
  /// the relative order within each group.
  ///
  /// - Returns: The index of the first matching element, or `endIndex` if none matches.
  /// - Complexity: O(`count`).
  public mutating func partition(
    by belongsInSecondPartition: (Element) throws -> Bool
  ) rethrows -> Int {
    let matches = try self.map(belongsInSecondPartition)
    let first = self.indices.filter { !matches[$0] }
    self._permute(first + self.indices.filter { matches[$0] })
    return first.count
  }

  /// Sorts the elements in place with the given ordering.
  ///
  /// ```swift
  /// todos.sort { $0.title < $1.title }
  /// ```
  ///
  /// If the predicate throws, the elements may be reordered, but none is lost.
  ///
  /// - Complexity: O(*n* log *n*).
  public mutating func sort(
    by areInIncreasingOrder: (Element, Element) throws -> Bool
  ) rethrows {
    let count = self.count
    guard count > 1 else { return }
    self._makeChunksUnique(from: 0)
    // Sorted in one contiguous buffer, and moved back into the chunks whatever happens.
    var buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: count)
    defer { buffer.deallocate() }
    for position in 0..<count {
      (buffer.baseAddress! + position).moveInitialize(from: self._address(position), count: 1)
    }
    defer {
      let idOf = self._storage.withUnsafeMutablePointerToHeader { $0.pointee.idOf }
      let ids = buffer.map(idOf)
      for position in 0..<count {
        self._address(position).moveInitialize(from: buffer.baseAddress! + position, count: 1)
      }
      self._storage.withUnsafeMutablePointerToHeader { $0.pointee.ids._reorder(ids) }
    }
    try buffer.sort(by: areInIncreasingOrder)
  }

  /// Moves the elements at the given offsets to just before the element at `destination`, as
  /// SwiftUI's `onMove` reports it.
  ///
  /// ```swift
  /// var letters: IdentifiedArray = … // a, b, c, d (ids a, b, c, d)
  /// letters.move(fromOffsets: [0, 2], toOffset: 4)  // b, d, a, c
  /// ```
  ///
  /// - Parameters:
  ///   - source: The offsets of the elements to move.
  ///   - destination: The offset, in the array before the move, of the element to move them in
  ///     front of; `count` moves them to the end.
  /// - Complexity: O(`count`).
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    precondition(destination >= 0 && destination <= self.count, "Offset out of range")
    let moving = source.filter { $0 < self.count }
    guard !moving.isEmpty else { return }
    let remaining = self.indices.filter { !source.contains($0) }
    let insertion = destination - moving.count { $0 < destination }
    let order = Array(remaining[..<insertion]) + moving + remaining[insertion...]
    self._permute(order)
  }
}

extension IdentifiedArray where Element: Comparable {
  /// Sorts the elements in ascending order.
  ///
  /// - Complexity: O(*n* log *n*).
  public mutating func sort() {
    self.sort(by: <)
  }
}

extension IdentifiedArray {
  /// Returns the elements that satisfy the predicate, as an identified array.
  ///
  /// ```swift
  /// let open = todos.filter { !$0.isComplete }  // IdentifiedArrayOf<Todo>
  /// ```
  ///
  /// - Complexity: O(`count`).
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    var result = Self(
      id: self.id,
      idOf: self._storage.withUnsafeMutablePointerToHeader { $0.pointee.idOf },
      capacity: 0
    )
    for (index, element) in self.enumerated() where try isIncluded(element) {
      result._insert(element, id: self.ids[index], at: result.count)
    }
    return result
  }

  /// Reserves room for at least `minimumCapacity` elements.
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    self._makeUnique(reservingCapacity: Swift.max(0, minimumCapacity - self.count))
  }
}
