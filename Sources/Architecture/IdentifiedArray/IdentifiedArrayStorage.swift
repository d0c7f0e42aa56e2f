/// How an identified array splits its elements into chunks, and its chunks into pages.
///
/// The element at position `p` lives in chunk `c = p >> shift`, at offset `p & mask`; chunk `c`
/// lives in page `c >> pageShift`, at slot `c & pageMask`. Every chunk is full except the last,
/// every page is full except the last, and there are no empty chunks or pages: `count` elements
/// take `chunkCount(holding: count)` chunks, in `pageCount(holdingChunks:)` of them pages.
///
/// Why chunks: a trace recorder keeps the previous state alive while the app reduces the next
/// action. With one flat buffer, mutating one element of that shared state copied every element;
/// with chunks it copies the one chunk that holds the element, and the recorder finds what changed
/// by comparing chunk references (see `IdentifiedArray._positionsThatMayDiffer(from:)`).
///
/// Why pages: with one flat table of chunk references, that mutation also copied the table, a
/// retain per chunk (and a release per chunk when the old version goes), so its cost grew with
/// the array. Behind a small top table of page references, it copies the top table (a retain per
/// page), the one page (a retain per chunk in it) and the one chunk (a copy per element in it).
///
/// Why 16 and 16: among the layouts tried, the cheapest recorded toggle and shared mutation at
/// both 1,000 and 10,000 elements (Documentation/Performance.md, "Identified array layout").
@usableFromInline
enum _IdentifiedArrayChunks {
  /// The base-2 logarithm of the number of elements per chunk.
  @inlinable static var shift: Int { 4 }
  /// The number of elements per chunk.
  @inlinable static var size: Int { 1 &<< shift }
  /// Masks a position to its offset in its chunk.
  @inlinable static var mask: Int { size &- 1 }

  /// The base-2 logarithm of the number of chunks per page.
  @inlinable static var pageShift: Int { 4 }
  /// The number of chunks per page.
  @inlinable static var pageSize: Int { 1 &<< pageShift }
  /// Masks a chunk index to its slot in its page.
  @inlinable static var pageMask: Int { pageSize &- 1 }

  /// The number of chunks that hold `count` elements.
  @inlinable
  static func chunkCount(holding count: Int) -> Int {
    (count &+ mask) &>> shift
  }

  /// The number of pages that hold `chunkCount` chunks.
  @inlinable
  static func pageCount(holdingChunks chunkCount: Int) -> Int {
    (chunkCount &+ pageMask) &>> pageShift
  }

  /// Releases `count` class references stored from `references` on, as a non-generic loop.
  ///
  /// The deinits of pages and of the top table use this: a deinit is never specialized, and
  /// `deinitialize(count:)` on a generic class type releases each reference through its type's
  /// value witnesses, about twice the work of this loop.
  static func releaseReferences(_ references: UnsafeMutableRawPointer, count: Int) {
    let references = references.assumingMemoryBound(to: UnsafeRawPointer.self)
    for index in 0..<count {
      Unmanaged<AnyObject>.fromOpaque(references[index]).release()
    }
  }
}

/// The bookkeeping of one chunk or page: how many elements (chunk references) it holds and has
/// room for.
@usableFromInline
struct IdentifiedArrayChunkHeader {
  /// How many elements are initialized, from the start of the chunk.
  @usableFromInline var count: Int
  /// How many elements the chunk has room for; at most `_IdentifiedArrayChunks.size`
  /// (`pageSize` for a page).
  @usableFromInline var capacity: Int

  @inlinable
  init(count: Int, capacity: Int) {
    self.count = count
    self.capacity = capacity
  }
}

/// A copy-on-write run of up to `_IdentifiedArrayChunks.size` consecutive elements.
///
/// A chunk may be shared by several arrays' storages; it is only written to once it is known to
/// be referenced by one storage alone, itself referenced by one array alone.
@usableFromInline
final class IdentifiedArrayChunk<Element>:
  ManagedBuffer<IdentifiedArrayChunkHeader, Element>
{
  deinit {
    _ = self.withUnsafeMutablePointers { header, elements in
      elements.deinitialize(count: header.pointee.count)
    }
  }

  /// Creates an empty chunk with room for `capacity` elements.
  @inlinable
  static func make(capacity: Int) -> IdentifiedArrayChunk {
    let buffer = self.create(minimumCapacity: capacity) { _ in
      IdentifiedArrayChunkHeader(count: 0, capacity: capacity)
    }
    return unsafeDowncast(buffer, to: IdentifiedArrayChunk.self)
  }

  /// A pointer to the first element; valid while the chunk is alive.
  @inlinable
  var elements: UnsafeMutablePointer<Element> {
    self.withUnsafeMutablePointerToElements { $0 }
  }

  /// A pointer to the chunk's count and capacity; valid while the chunk is alive.
  ///
  /// Reading `header` instead would check exclusive access at run time, on every access.
  @inlinable
  var _header: UnsafeMutablePointer<IdentifiedArrayChunkHeader> {
    self.withUnsafeMutablePointerToHeader { $0 }
  }

  /// A chunk with copies of the elements, with room for `capacity` (at least the count).
  @inlinable
  func copy(capacity: Int) -> IdentifiedArrayChunk {
    let count = self._header.pointee.count
    let copy = IdentifiedArrayChunk.make(capacity: capacity)
    copy.elements.initialize(from: self.elements, count: count)
    copy._header.pointee.count = count
    return copy
  }

  /// A chunk with this chunk's elements moved into it, with room for `capacity` (at least the
  /// count); this chunk is left empty.
  @inlinable
  func move(capacity: Int) -> IdentifiedArrayChunk {
    let count = self._header.pointee.count
    let moved = IdentifiedArrayChunk.make(capacity: capacity)
    moved.elements.moveInitialize(from: self.elements, count: count)
    moved._header.pointee.count = count
    self._header.pointee.count = 0
    return moved
  }
}

/// A copy-on-write run of up to `_IdentifiedArrayChunks.pageSize` consecutive chunk references.
///
/// Like a chunk, a page may be shared by several arrays' storages, and is only written to once it
/// is known to be referenced by one storage alone, itself referenced by one array alone. A page
/// that is unique to an array may still share its chunks.
@usableFromInline
final class IdentifiedArrayPage<Element>:
  ManagedBuffer<IdentifiedArrayChunkHeader, IdentifiedArrayChunk<Element>>
{
  deinit {
    let (count, chunks) = self.withUnsafeMutablePointers { ($0.pointee.count, $1) }
    _IdentifiedArrayChunks.releaseReferences(UnsafeMutableRawPointer(chunks), count: count)
  }

  /// Creates an empty page with room for `capacity` chunk references.
  @inlinable
  static func make(capacity: Int) -> IdentifiedArrayPage {
    let buffer = self.create(minimumCapacity: capacity) { _ in
      IdentifiedArrayChunkHeader(count: 0, capacity: capacity)
    }
    return unsafeDowncast(buffer, to: IdentifiedArrayPage.self)
  }

  /// A pointer to the first chunk reference; valid while the page is alive.
  @inlinable
  var chunks: UnsafeMutablePointer<IdentifiedArrayChunk<Element>> {
    self.withUnsafeMutablePointerToElements { $0 }
  }

  /// The slot of the chunk at `index` of the pages that start at `pages`.
  ///
  /// Given a pointer rather than the storage, so that callers that mutate the array do not hold
  /// (and retain) a reference to its storage.
  @inlinable
  static func chunkSlot(
    _ index: Int,
    in pages: UnsafeMutablePointer<IdentifiedArrayPage>
  ) -> UnsafeMutablePointer<IdentifiedArrayChunk<Element>> {
    pages[index &>> _IdentifiedArrayChunks.pageShift].chunks
      + (index & _IdentifiedArrayChunks.pageMask)
  }

  /// A pointer to the page's count and capacity; valid while the page is alive.
  @inlinable
  var _header: UnsafeMutablePointer<IdentifiedArrayChunkHeader> {
    self.withUnsafeMutablePointerToHeader { $0 }
  }

  /// A page with the same chunks (retained, not copied), with room for `capacity` (at least the
  /// count) of them.
  ///
  /// A loop of retains, as `IdentifiedArrayStorage.copy(capacity:)`, for the same reason.
  @inlinable
  func copy(capacity: Int) -> IdentifiedArrayPage {
    let count = self._header.pointee.count
    let copy = IdentifiedArrayPage.make(capacity: capacity)
    let source = self.chunks
    let target = copy.chunks
    for chunk in 0..<count {
      (target + chunk).initialize(to: source[chunk])
    }
    copy._header.pointee.count = count
    return copy
  }

  /// A page with this page's chunk references moved into it, with room for `capacity` (at least
  /// the count) of them; this page is left empty.
  @inlinable
  func move(capacity: Int) -> IdentifiedArrayPage {
    let count = self._header.pointee.count
    let moved = IdentifiedArrayPage.make(capacity: capacity)
    moved.chunks.moveInitialize(from: self.chunks, count: count)
    moved._header.pointee.count = count
    self._header.pointee.count = 0
    return moved
  }
}

/// The bookkeeping an identified array keeps next to its page references.
@usableFromInline
struct IdentifiedArrayHeader<ID: Hashable, Element> {
  /// How many elements the array holds, over `_IdentifiedArrayChunks.chunkCount(holding:)`
  /// chunks.
  @usableFromInline var count: Int
  /// How many page references the buffer has room for.
  @usableFromInline var capacity: Int
  /// How many elements room was reserved for (`reserveCapacity(_:)`, or an initializer's
  /// underestimated count): the first page and chunk then start at their full size instead of
  /// growing.
  @usableFromInline var reserved: Int
  /// The elements' ids, in the same order, with each id's index.
  ///
  /// Copying the storage to mutate an element shares this set with the copy (it is copy-on-write
  /// itself), so the index is neither copied nor rebuilt unless ids change.
  @usableFromInline var ids: OrderedSet<ID>
  /// The key path to an element's id, as given by the user (``IdentifiedArray/id``).
  @usableFromInline let idPath: KeyPath<Element, ID>
  /// Reads an element's id: `\.id` for identifiable elements, faster than the key path.
  @usableFromInline let idOf: (Element) -> ID

  @usableFromInline
  init(idPath: KeyPath<Element, ID>, idOf: @escaping (Element) -> ID) {
    self.count = 0
    self.capacity = 0
    self.reserved = 0
    self.ids = OrderedSet()
    self.idPath = idPath
    self.idOf = idOf
  }
}

/// The copy-on-write buffer of an identified array: its header and the references to its pages,
/// in one object (the top table).
///
/// Copying it copies the header and retains the pages; the chunks and elements stay where they
/// are, shared, until a page or chunk is written to (see
/// `IdentifiedArray._makeChunkUnique(_:minimumCapacity:)`).
@usableFromInline
final class IdentifiedArrayStorage<ID: Hashable, Element>:
  ManagedBuffer<IdentifiedArrayHeader<ID, Element>, IdentifiedArrayPage<Element>>
{
  deinit {
    let (pageCount, pages) = self.withUnsafeMutablePointers { header, pages in
      let chunkCount = _IdentifiedArrayChunks.chunkCount(holding: header.pointee.count)
      return (_IdentifiedArrayChunks.pageCount(holdingChunks: chunkCount), pages)
    }
    _IdentifiedArrayChunks.releaseReferences(UnsafeMutableRawPointer(pages), count: pageCount)
  }

  /// Creates an empty buffer with room for at least `capacity` page references.
  @inlinable
  static func make(
    capacity: Int,
    header: IdentifiedArrayHeader<ID, Element>
  ) -> IdentifiedArrayStorage {
    let buffer = self.create(minimumCapacity: capacity) { buffer in
      var header = header
      header.capacity = buffer.capacity
      return header
    }
    return unsafeDowncast(buffer, to: IdentifiedArrayStorage.self)
  }

  /// The number of pages the array's elements take.
  @inlinable
  var pageCount: Int {
    _IdentifiedArrayChunks.pageCount(
      holdingChunks: _IdentifiedArrayChunks.chunkCount(holding: self._header.pointee.count)
    )
  }

  /// A buffer with the same header and the same pages (retained, not copied), with room for
  /// `capacity` page references.
  ///
  /// Inlinable, and a loop of retains, because a recorder makes the app copy this buffer on every
  /// action that changes an element: generic, it cost about as much as the element's reducer.
  @inlinable
  func copy(capacity: Int) -> IdentifiedArrayStorage {
    let copy = Self.make(capacity: capacity, header: self._header.pointee)
    let source = self.pages
    let target = copy.pages
    for page in 0..<self.pageCount {
      (target + page).initialize(to: source[page])
    }
    return copy
  }

  /// A buffer with the same header and this buffer's page references moved into it, with room
  /// for `capacity` of them; this buffer is left empty.
  @usableFromInline
  func move(capacity: Int) -> IdentifiedArrayStorage {
    let moved = Self.make(capacity: capacity, header: self._header.pointee)
    moved.pages.moveInitialize(from: self.pages, count: self.pageCount)
    self.withUnsafeMutablePointerToHeader { header in
      header.pointee.count = 0
      header.pointee.ids = OrderedSet()
    }
    return moved
  }

  /// A pointer to the header; valid while the buffer is alive.
  ///
  /// Reading `header` instead would check exclusive access at run time, on every access.
  @inlinable
  var _header: UnsafeMutablePointer<IdentifiedArrayHeader<ID, Element>> {
    self.withUnsafeMutablePointerToHeader { $0 }
  }

  /// A pointer to the first page reference; valid while the buffer is alive.
  @inlinable
  var pages: UnsafeMutablePointer<IdentifiedArrayPage<Element>> {
    self.withUnsafeMutablePointerToElements { $0 }
  }

  /// The slot of the chunk at `index`, to read it (or write it once its page is unique); valid
  /// until the buffer or that page is replaced.
  ///
  /// - Precondition: `index` is in `0..<chunkCount(holding: count)`.
  @inlinable
  func chunkSlot(_ index: Int) -> UnsafeMutablePointer<IdentifiedArrayChunk<Element>> {
    IdentifiedArrayPage.chunkSlot(index, in: self.pages)
  }
}
