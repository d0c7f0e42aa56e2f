/// The bookkeeping an identified array keeps next to its elements.
@usableFromInline
struct IdentifiedArrayHeader<ID: Hashable, Element> {
  /// How many elements are initialized, from the start of the element buffer.
  @usableFromInline var count: Int
  /// How many elements the buffer has room for.
  @usableFromInline var capacity: Int
  /// The elements' ids, in the same order, with each id's index.
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

/// The copy-on-write buffer of an identified array: its header and its elements, in one object.
///
/// Owning the element memory lets the array move an element out to mutate it (see
/// `subscript(id:)`) and shift elements without copying them.
@usableFromInline
final class IdentifiedArrayStorage<ID: Hashable, Element>:
  ManagedBuffer<IdentifiedArrayHeader<ID, Element>, Element>
{
  deinit {
    _ = self.withUnsafeMutablePointers { header, elements in
      elements.deinitialize(count: header.pointee.count)
    }
  }

  /// Creates an empty buffer with room for at least `capacity` elements.
  @usableFromInline
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

  /// A buffer with the same header and copies of the elements, with room for `capacity`.
  @usableFromInline
  func copy(capacity: Int) -> IdentifiedArrayStorage {
    let copy = Self.make(capacity: capacity, header: self.header)
    self.withUnsafeMutablePointerToElements { source in
      copy.withUnsafeMutablePointerToElements { target in
        target.initialize(from: source, count: self.header.count)
      }
    }
    return copy
  }

  /// A buffer with the same header and this buffer's elements moved into it, with room for
  /// `capacity`; this buffer is left empty.
  @usableFromInline
  func move(capacity: Int) -> IdentifiedArrayStorage {
    let moved = Self.make(capacity: capacity, header: self.header)
    self.withUnsafeMutablePointers { header, source in
      moved.withUnsafeMutablePointerToElements { target in
        target.moveInitialize(from: source, count: header.pointee.count)
      }
      header.pointee.count = 0
      header.pointee.ids = OrderedSet()
    }
    return moved
  }

  /// A pointer to the first element; valid while the buffer is alive.
  @inlinable
  var elements: UnsafeMutablePointer<Element> {
    self.withUnsafeMutablePointerToElements { $0 }
  }
}
