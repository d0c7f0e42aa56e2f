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
/// Storage is copy-on-write, in chunks of 16 elements grouped in pages of 16 chunks: copies share
/// everything until one of them is mutated, and mutating one element of a shared array then copies
/// the chunk that holds it, its page and the short list of pages, not the whole array.
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

  /// Creates an empty array with the given way of reading ids, with room for `capacity` elements'
  /// page references.
  @usableFromInline
  init(id: KeyPath<Element, ID>, idOf: @escaping (Element) -> ID, capacity: Int) {
    var header = IdentifiedArrayHeader(idPath: id, idOf: idOf)
    header.reserved = capacity
    self._storage = IdentifiedArrayStorage.make(
      capacity: _IdentifiedArrayChunks.pageCount(
        holdingChunks: _IdentifiedArrayChunks.chunkCount(holding: capacity)
      ),
      header: header
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
    let count = self.count
    return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
      var position = 0
      for chunk in 0..<_IdentifiedArrayChunks.chunkCount(holding: count) {
        let chunk = self._storage.chunkSlot(chunk).pointee
        let chunkCount = chunk._header.pointee.count
        (buffer.baseAddress! + position).initialize(from: chunk.elements, count: chunkCount)
        position += chunkCount
      }
      initialized = count
    }
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
      return self._address(index).pointee
    }
    @inlinable
    set {
      let index = self.index(id: id)
      switch (index, newValue) {
      case (nil, nil):
        return
      case (let index?, nil):
        self.remove(at: index)
      case (let index, let newValue?):
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
          self._uniqueAddress(index).pointee = newValue
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
      // Moved out, so that the caller mutates the only copy; moved back (or removed) after. Only
      // the element's chunk is made unique to this array: a copy shares the others.
      var element: Element? = self._uniqueAddress(index).move()
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

  /// The positions whose elements may differ from `old`'s, found in time proportional to the
  /// number of pages plus the changed pages' chunks — or nil when the two differ in length or in
  /// their ids, i.e. elements were inserted, removed or reordered (the caller then falls back
  /// to a full comparison).
  ///
  /// Elements live in chunks of 16 that copies of an array share until one of them writes to a
  /// chunk, grouped in pages of chunks shared the same way, so a shared page is skipped whole.
  /// The ranges are those of the chunks that are not shared, in order, with adjacent ranges
  /// merged; every element outside them is the same as `old`'s at the same position. An element
  /// inside them may still be equal to `old`'s (a chunk is copied whenever one of its elements is
  /// mutated, even back to its old value), so compare those:
  ///
  /// ```swift
  /// let old: IdentifiedArrayOf<Todo> = …   // 1,000 todos, todo 100 at position 100
  /// var new = old
  /// new._positionsThatMayDiffer(from: old)  // []
  /// new[id: 100]?.isComplete.toggle()
  /// new._positionsThatMayDiffer(from: old)  // [96..<112]: the chunk that holds position 100
  /// new.remove(id: 100)
  /// new._positionsThatMayDiffer(from: old)  // nil: compare in full
  /// ```
  ///
  /// - Complexity: O(1) when both share one buffer; otherwise, when the ids are shared too (only
  ///   elements' other fields were mutated), O(*p* + *c*) for *p* pages and *c* chunks in the
  ///   pages that are not shared; O(`count`) when the ids were rebuilt (they are then compared one
  ///   by one).
  package func _positionsThatMayDiffer(from old: Self) -> [Range<Int>]? {
    if self._isIdentical(to: old) { return [] }
    let count = self.count
    guard count == old.count else { return nil }
    let ids = self.ids._elements
    let oldIDs = old.ids._elements
    let sharesIDs = ids.withUnsafeBufferPointer { ids in
      oldIDs.withUnsafeBufferPointer { $0.baseAddress == ids.baseAddress }
    }
    guard sharesIDs || ids == oldIDs else { return nil }

    let pages = self._storage.pages
    let oldPages = old._storage.pages
    let size = _IdentifiedArrayChunks.size
    let pageSize = _IdentifiedArrayChunks.pageSize
    let chunkCount = _IdentifiedArrayChunks.chunkCount(holding: count)
    var ranges: [Range<Int>] = []
    for page in 0..<self._storage.pageCount where pages[page] !== oldPages[page] {
      let chunks = pages[page].chunks
      let oldChunks = oldPages[page].chunks
      let firstChunk = page * pageSize
      for slot in 0..<Swift.min(pageSize, chunkCount - firstChunk)
      where chunks[slot] !== oldChunks[slot] {
        let start = (firstChunk + slot) * size
        let end = Swift.min(start + size, count)
        if let last = ranges.last, last.upperBound == start {
          ranges[ranges.count - 1] = last.lowerBound..<end
        } else {
          ranges.append(start..<end)
        }
      }
    }
    return ranges
  }
}

/// An identified array of `Identifiable` elements, identified by their `id`.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = []
/// ```
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

// unchecked: copy-on-write: the shared buffer is written only when uniquely referenced
extension IdentifiedArray: @unchecked Sendable where ID: Sendable, Element: Sendable {}

// MARK: - Internals shared by the extensions

extension IdentifiedArray {
  /// The id of an element, as this array reads it.
  @inlinable
  func _idOf(_ element: Element) -> ID {
    self._storage.withUnsafeMutablePointerToHeader { $0.pointee.idOf }(element)
  }

  /// The address of the element at `position`, to read it; valid until the array is mutated.
  ///
  /// - Precondition: `position` is in `0..<count`.
  @inlinable
  func _address(_ position: Int) -> UnsafeMutablePointer<Element> {
    self._storage.chunkSlot(position &>> _IdentifiedArrayChunks.shift).pointee.elements
      + (position & _IdentifiedArrayChunks.mask)
  }

  /// The address of the element at `position`, to write it: the page references, and the page and
  /// chunk that hold the element, are made unique to this array first; nothing else is copied.
  ///
  /// - Precondition: `position` is in `0..<count`.
  @inlinable
  mutating func _uniqueAddress(_ position: Int) -> UnsafeMutablePointer<Element> {
    self._makeUnique()
    let slot = self._makeChunkUnique(position &>> _IdentifiedArrayChunks.shift)
    return slot.pointee.elements + (position & _IdentifiedArrayChunks.mask)
  }

  /// Makes the buffer of page references unique to this array, with room for the pages of
  /// `additional` more elements. The pages and chunks themselves stay shared with any copy.
  @inlinable
  mutating func _makeUnique() {
    // The page references always fit the buffer: only its sharing matters.
    if isKnownUniquelyReferenced(&self._storage) { return }
    self._reallocate(capacity: self._storage._header.pointee.capacity)
  }

  /// Makes the buffer of page references unique to this array, with room for the pages of
  /// `additional` more elements. The pages and chunks themselves stay shared with any copy.
  @inlinable
  mutating func _makeUnique(reservingCapacity additional: Int) {
    let (count, capacity) = self._storage.withUnsafeMutablePointerToHeader {
      ($0.pointee.count, $0.pointee.capacity)
    }
    let needed = _IdentifiedArrayChunks.pageCount(
      holdingChunks: _IdentifiedArrayChunks.chunkCount(holding: count + additional)
    )
    if !isKnownUniquelyReferenced(&self._storage) || needed > capacity {
      self._reallocate(capacity: needed > capacity ? Swift.max(needed, 2 * capacity) : capacity)
    }
    // A reservation of more than one element is remembered, to size the first page and chunk.
    if additional > 1 {
      self._storage.withUnsafeMutablePointerToHeader {
        $0.pointee.reserved = Swift.max($0.pointee.reserved, count + additional)
      }
    }
  }

  /// Replaces the buffer with one with room for `capacity` page references: the references are
  /// moved if the buffer is unique to this array, copied (retained) otherwise.
  @inlinable
  mutating func _reallocate(capacity: Int) {
    if isKnownUniquelyReferenced(&self._storage) {
      self._storage = self._storage.move(capacity: capacity)
    } else {
      self._storage = self._storage.copy(capacity: capacity)
    }
  }

  /// Makes the page at `index` unique to this array, with room for `minimumCapacity` chunk
  /// references: copies it if another buffer shares it, grows it if it is too small. Its chunks
  /// stay shared with any copy.
  ///
  /// - Precondition: The buffer of page references is unique to this array (`_makeUnique()`).
  @inlinable
  mutating func _makePageUnique(_ index: Int, minimumCapacity: Int = 0) {
    let slot = self._storage.pages + index
    let capacity = slot.pointee._header.pointee.capacity
    let isUnique = isKnownUniquelyReferenced(&slot.pointee)
    if isUnique, minimumCapacity <= capacity { return }
    let newCapacity =
      minimumCapacity <= capacity
      ? capacity
      : Swift.min(_IdentifiedArrayChunks.pageSize, Swift.max(minimumCapacity, 2 * capacity))
    slot.pointee =
      isUnique ? slot.pointee.move(capacity: newCapacity) : slot.pointee.copy(capacity: newCapacity)
  }

  /// Makes the chunk at `index`, and its page, unique to this array, with room for
  /// `minimumCapacity` elements: copies the chunk if another page shares it, grows it if it is too
  /// small.
  ///
  /// - Returns: The chunk's slot in its page, valid until the buffer or the page is replaced.
  /// - Precondition: The buffer of page references is unique to this array (`_makeUnique()`).
  @inlinable
  @discardableResult
  mutating func _makeChunkUnique(
    _ index: Int,
    minimumCapacity: Int = 0
  ) -> UnsafeMutablePointer<IdentifiedArrayChunk<Element>> {
    // The page's capacity does not matter here (the chunk is in it): only its sharing does.
    let page = self._storage.pages + (index &>> _IdentifiedArrayChunks.pageShift)
    if !isKnownUniquelyReferenced(&page.pointee) {
      self._makePageUnique(index &>> _IdentifiedArrayChunks.pageShift)
    }
    let slot = page.pointee.chunks + (index & _IdentifiedArrayChunks.pageMask)
    let capacity = slot.pointee._header.pointee.capacity
    let isUnique = isKnownUniquelyReferenced(&slot.pointee)
    if isUnique, minimumCapacity <= capacity { return slot }
    let newCapacity =
      minimumCapacity <= capacity
      ? capacity
      : Swift.min(_IdentifiedArrayChunks.size, Swift.max(minimumCapacity, 2 * capacity))
    slot.pointee =
      isUnique ? slot.pointee.move(capacity: newCapacity) : slot.pointee.copy(capacity: newCapacity)
    return slot
  }

  /// Makes the chunks from the one holding `position` to the last unique to this array.
  @usableFromInline
  mutating func _makeChunksUnique(from position: Int) {
    self._makeUnique()
    let end = _IdentifiedArrayChunks.chunkCount(holding: self.count)
    for chunk in (position &>> _IdentifiedArrayChunks.shift)..<end {
      self._makeChunkUnique(chunk)
    }
  }

  /// Adds an empty chunk after the last one, with room for `capacity` elements, in a new page if
  /// the last page is full.
  ///
  /// - Returns: The new chunk's slot in its page, valid until the buffer or the page is replaced.
  /// - Precondition: The buffer of page references is unique to this array, with room for one
  ///   more page (`_makeUnique(reservingCapacity:)`); the array's count is a multiple of the chunk
  ///   size, and is updated by the caller.
  @inlinable
  mutating func _appendChunk(capacity: Int) -> UnsafeMutablePointer<IdentifiedArrayChunk<Element>> {
    let index = _IdentifiedArrayChunks.chunkCount(holding: self.count)
    let page = index &>> _IdentifiedArrayChunks.pageShift
    let slot = index & _IdentifiedArrayChunks.pageMask
    if slot == 0 {
      // A new page. The first grows like an array's buffer, unless more room was reserved;
      // later ones are full-sized from the start.
      let reserved = _IdentifiedArrayChunks.chunkCount(
        holding: self._storage._header.pointee.reserved
      )
      let pageCapacity =
        page == 0
        ? Swift.min(_IdentifiedArrayChunks.pageSize, Swift.max(1, reserved))
        : _IdentifiedArrayChunks.pageSize
      (self._storage.pages + page).initialize(to: .make(capacity: pageCapacity))
    } else {
      self._makePageUnique(page, minimumCapacity: slot + 1)
    }
    let target = self._storage.pages + page
    (target.pointee.chunks + slot).initialize(to: .make(capacity: capacity))
    target.pointee._header.pointee.count = slot + 1
    return target.pointee.chunks + slot
  }

  /// Drops the chunks from the one at `index` on, and the pages left empty.
  ///
  /// - Precondition: The chunks dropped hold no elements (their counts are 0), and their pages are
  ///   unique to this array; the array's count is updated by the caller.
  @inlinable
  mutating func _removeChunks(from index: Int, chunkCount: Int) {
    guard index < chunkCount else { return }
    let pageShift = _IdentifiedArrayChunks.pageShift
    let pages = self._storage.pages
    let keptPages = _IdentifiedArrayChunks.pageCount(holdingChunks: index)
    let oldPages = _IdentifiedArrayChunks.pageCount(holdingChunks: chunkCount)
    if index & _IdentifiedArrayChunks.pageMask != 0 {
      // The last page kept loses its chunks from `index` on.
      let page = pages[index &>> pageShift]
      let kept = index & _IdentifiedArrayChunks.pageMask
      (page.chunks + kept).deinitialize(count: page._header.pointee.count - kept)
      page._header.pointee.count = kept
    }
    // A page dropped releases its chunks itself.
    (pages + keptPages).deinitialize(count: oldPages - keptPages)
  }

  /// Inserts an element whose id is not in the array.
  ///
  /// Only the chunks from the one at `index` to the last are written to (each one's last element
  /// moves to the start of the next): inserting near the end leaves the others shared.
  @inlinable
  mutating func _insert(_ element: Element, id: ID, at index: Int) {
    precondition(index >= 0 && index <= self.count, "Index out of range")
    self._makeUnique(reservingCapacity: 1)
    let shift = _IdentifiedArrayChunks.shift
    let mask = _IdentifiedArrayChunks.mask
    let count = self.count
    // The chunk that receives position `count`, and its element count.
    let last = count &>> shift
    let lastCount = count & mask
    let lastSlot: UnsafeMutablePointer<IdentifiedArrayChunk<Element>>
    if lastCount == 0 {
      // A new chunk. The first grows like an array's buffer, unless more room was reserved;
      // later ones are full-sized from the start.
      let isFirst =
        last == 0 && self._storage._header.pointee.reserved <= _IdentifiedArrayChunks.size
      lastSlot = self._appendChunk(capacity: isFirst ? 4 : _IdentifiedArrayChunks.size)
    } else {
      lastSlot = self._makeChunkUnique(last, minimumCapacity: lastCount + 1)
    }
    let first = index &>> shift
    for chunk in first..<last {
      self._makeChunkUnique(chunk)
    }

    // From the last chunk down: shift each chunk's elements up by one, and move the previous
    // chunk's last element into the free first slot.
    let pages = self._storage.pages
    let offset = index & mask
    var chunk = last
    var elements = lastSlot.pointee.elements
    if first == last {
      (elements + offset + 1).moveInitialize(from: elements + offset, count: lastCount - offset)
    } else {
      (elements + 1).moveInitialize(from: elements, count: lastCount)
      while true {
        let previous = IdentifiedArrayPage.chunkSlot(chunk - 1, in: pages).pointee.elements
        elements.moveInitialize(from: previous + mask, count: 1)
        chunk -= 1
        elements = previous
        if chunk == first { break }
        (elements + 1).moveInitialize(from: elements, count: mask)
      }
      (elements + offset + 1).moveInitialize(from: elements + offset, count: mask - offset)
    }
    (elements + offset).initialize(to: element)
    lastSlot.pointee._header.pointee.count = lastCount + 1
    self._storage.withUnsafeMutablePointerToHeader { header in
      header.pointee.count = count + 1
      header.pointee.ids.insert(id, at: index)
    }
  }

  /// Closes the hole at `index`, whose element was moved out or destroyed: the later elements
  /// move down by one, the last chunk goes if it is emptied, and the id is removed.
  ///
  /// - Precondition: The buffer of page references, and the page and chunk holding `index`, are
  ///   unique to this array (`_uniqueAddress(_:)`).
  @inlinable
  mutating func _closeHole(at index: Int) {
    let shift = _IdentifiedArrayChunks.shift
    let mask = _IdentifiedArrayChunks.mask
    let count = self.count
    let first = index &>> shift
    let last = (count - 1) &>> shift
    var chunk = first
    while chunk < last {
      chunk += 1
      self._makeChunkUnique(chunk)
    }

    // From the hole's chunk up: shift each chunk's later elements down by one, and move the next
    // chunk's first element into the free last slot.
    let pages = self._storage.pages
    var elements = IdentifiedArrayPage.chunkSlot(first, in: pages).pointee.elements
    var offset = index & mask
    chunk = first
    while chunk < last {
      (elements + offset).moveInitialize(from: elements + offset + 1, count: mask - offset)
      let next = IdentifiedArrayPage.chunkSlot(chunk + 1, in: pages).pointee.elements
      (elements + mask).moveInitialize(from: next, count: 1)
      chunk += 1
      elements = next
      offset = 0
    }
    let lastHeader = IdentifiedArrayPage.chunkSlot(last, in: pages).pointee._header
    let lastCount = lastHeader.pointee.count
    (elements + offset).moveInitialize(from: elements + offset + 1, count: lastCount - offset - 1)
    lastHeader.pointee.count = lastCount - 1
    if lastCount == 1 {
      self._removeChunks(from: last, chunkCount: last + 1)
    }
    self._storage.withUnsafeMutablePointerToHeader { header in
      header.pointee.count = count - 1
      header.pointee.ids.remove(at: index)
    }
  }

  /// Fills the hole left at `index` by `subscript(id:)`'s `_modify`, or closes it.
  @inlinable
  mutating func _refill(_ index: Int, with element: Element?, id: ID) {
    guard let element else {
      self._closeHole(at: index)
      return
    }
    self._address(index).initialize(to: element)
    if self._idOf(element) != id {
      self._identityChanged(at: index, from: id)
    }
  }

  /// Handles an element whose id was changed in place: reports it, then keeps the element under
  /// its new id if that id is free, and drops it otherwise.
  ///
  /// - Precondition: The element's chunk is unique to this array.
  @usableFromInline
  mutating func _identityChanged(at index: Int, from oldID: ID) {
    let newID = self._idOf(self._address(index).pointee)
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
    if isTaken {
      self._address(index).deinitialize(count: 1)
      self._closeHole(at: index)
    } else {
      self._storage.withUnsafeMutablePointerToHeader { header in
        header.pointee.ids._replace(at: index, with: newID)
      }
    }
  }

  /// Rearranges the elements: the element at `order[i]` moves to index `i`.
  ///
  /// The chunks before the first element that moves are left shared.
  ///
  /// - Precondition: `order` is a permutation of the indices.
  @usableFromInline
  mutating func _permute(_ order: [Int]) {
    guard let start = order.indices.first(where: { order[$0] != $0 }) else { return }
    self._makeChunksUnique(from: start)
    let count = self.count
    let moved = UnsafeMutablePointer<Element>.allocate(capacity: count - start)
    defer { moved.deallocate() }
    for position in start..<count {
      (moved + position - start).moveInitialize(from: self._address(position), count: 1)
    }
    for target in start..<count {
      self._address(target).moveInitialize(from: moved + (order[target] - start), count: 1)
    }
    self._storage.withUnsafeMutablePointerToHeader { header in
      let ids = header.pointee.ids.elements
      header.pointee.ids._reorder(order.map { ids[$0] })
    }
  }

  /// Keeps the elements at the indices `keep` says to keep, in order, and destroys the others.
  ///
  /// The chunks before the first element removed are left shared.
  @usableFromInline
  mutating func _compact(keeping keep: [Bool]) {
    guard let start = keep.firstIndex(of: false) else { return }
    self._makeChunksUnique(from: start)
    let count = self.count
    var kept = start
    for position in start..<count {
      let source = self._address(position)
      if keep[position] {
        if kept != position {
          self._address(kept).moveInitialize(from: source, count: 1)
        }
        kept += 1
      } else {
        source.deinitialize(count: 1)
      }
    }
    // The chunks past the kept elements are empty now; the last kept one may be partly full.
    let pages = self._storage.pages
    let oldChunkCount = _IdentifiedArrayChunks.chunkCount(holding: count)
    let newChunkCount = _IdentifiedArrayChunks.chunkCount(holding: kept)
    for chunk in newChunkCount..<oldChunkCount {
      IdentifiedArrayPage.chunkSlot(chunk, in: pages).pointee._header.pointee.count = 0
    }
    self._removeChunks(from: newChunkCount, chunkCount: oldChunkCount)
    if newChunkCount > 0 {
      IdentifiedArrayPage.chunkSlot(newChunkCount - 1, in: pages).pointee._header.pointee.count =
        kept - (newChunkCount - 1) * _IdentifiedArrayChunks.size
    }
    self._storage.withUnsafeMutablePointerToHeader { header in
      let ids = header.pointee.ids.elements
      var keptIDs: [ID] = []
      keptIDs.reserveCapacity(kept)
      for index in 0..<count where keep[index] {
        keptIDs.append(ids[index])
      }
      header.pointee.count = kept
      header.pointee.ids = OrderedSet(keptIDs)
    }
  }
}
