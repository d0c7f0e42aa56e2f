/// How an identified array splits its elements into chunks.
///
/// The element at position `p` lives in chunk `p >> shift`, at offset `p & mask`. Every chunk is
/// full except the last, and there are no empty chunks: `count` elements take
/// `chunkCount(holding: count)` chunks.
///
/// Why chunks: a trace recorder keeps the previous state alive while the app reduces the next
/// action. With one flat buffer, mutating one element of that shared state copied every element;
/// with chunks it copies the chunk references (a pointer and a retain each) and the one chunk
/// that holds the element, and the recorder finds what changed by comparing chunk references
/// (see `IdentifiedArray._positionsThatMayDiffer(from:)`).
///
/// 64 elements per chunk measured best among 32, 64 and 128: mutating one element of a shared
/// array of 1,000 (10,000) small todos took about 0.8 µs (3.3 µs) with 32, 0.9 µs (1.7 µs) with 64
/// and 1.3–1.9 µs (1.8 µs) with 128, in release. Retaining the chunk references costs more as
/// chunks get smaller, copying the one chunk more as they get larger.
@usableFromInline
enum _IdentifiedArrayChunks {
  /// The base-2 logarithm of the number of elements per chunk.
  @inlinable static var shift: Int { 6 }
  /// The number of elements per chunk.
  @inlinable static var size: Int { 1 &<< shift }
  /// Masks a position to its offset in its chunk.
  @inlinable static var mask: Int { size &- 1 }

  /// The number of chunks that hold `count` elements.
  @inlinable
  static func chunkCount(holding count: Int) -> Int {
    (count &+ mask) &>> shift
  }
}

/// The bookkeeping of one chunk: how many elements it holds and has room for.
@usableFromInline
struct IdentifiedArrayChunkHeader {
  /// How many elements are initialized, from the start of the chunk.
  @usableFromInline var count: Int
  /// How many elements the chunk has room for; at most `_IdentifiedArrayChunks.size`.
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

/// The bookkeeping an identified array keeps next to its chunk references.
@usableFromInline
struct IdentifiedArrayHeader<ID: Hashable, Element> {
  /// How many elements the array holds, over `_IdentifiedArrayChunks.chunkCount(holding:)`
  /// chunks.
  @usableFromInline var count: Int
  /// How many chunk references the buffer has room for.
  @usableFromInline var capacity: Int
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
    self.ids = OrderedSet()
    self.idPath = idPath
    self.idOf = idOf
  }
}

/// The copy-on-write buffer of an identified array: its header and the references to its chunks,
/// in one object.
///
/// Copying it copies the header and retains the chunks; the elements stay where they are, shared,
/// until a chunk is written to (see `IdentifiedArray._makeChunkUnique(_:minimumCapacity:)`).
@usableFromInline
final class IdentifiedArrayStorage<ID: Hashable, Element>:
  ManagedBuffer<IdentifiedArrayHeader<ID, Element>, IdentifiedArrayChunk<Element>>
{
  deinit {
    _ = self.withUnsafeMutablePointers { header, chunks in
      chunks.deinitialize(count: _IdentifiedArrayChunks.chunkCount(holding: header.pointee.count))
    }
  }

  /// Creates an empty buffer with room for at least `capacity` chunk references.
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

  /// A buffer with the same header and the same chunks (retained, not copied), with room for
  /// `capacity` chunk references.
  ///
  /// Inlinable, and a loop of retains, because a recorder makes the app copy this buffer on every
  /// action that changes an element: generic, it cost about as much as the element's reducer.
  @inlinable
  func copy(capacity: Int) -> IdentifiedArrayStorage {
    let copy = Self.make(capacity: capacity, header: self._header.pointee)
    let source = self.chunks
    let target = copy.chunks
    for chunk in 0..<_IdentifiedArrayChunks.chunkCount(holding: self._header.pointee.count) {
      (target + chunk).initialize(to: source[chunk])
    }
    return copy
  }

  /// A buffer with the same header and this buffer's chunk references moved into it, with room
  /// for `capacity` of them; this buffer is left empty.
  @usableFromInline
  func move(capacity: Int) -> IdentifiedArrayStorage {
    let moved = Self.make(capacity: capacity, header: self._header.pointee)
    self.withUnsafeMutablePointers { header, source in
      moved.chunks.moveInitialize(
        from: source,
        count: _IdentifiedArrayChunks.chunkCount(holding: header.pointee.count)
      )
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

  /// A pointer to the first chunk reference; valid while the buffer is alive.
  @inlinable
  var chunks: UnsafeMutablePointer<IdentifiedArrayChunk<Element>> {
    self.withUnsafeMutablePointerToElements { $0 }
  }
}
