/// Questions about Swift types answered from their runtime metadata, for the case-path machinery.
///
/// Layouts used (stable Swift ABI, `swift/ABI/Metadata.h`): word 0 of a metadata record is its
/// kind; a struct's or enum's word 1 is its nominal type descriptor and its generic arguments
/// follow (an optional's `Wrapped` is word 2); a tuple's words are its kind, its element count,
/// its labels, then an (element type, offset) pair per element.
enum MetadataKind {
  static let `struct`: UInt = 0x200
  static let `enum`: UInt = 0x201
  static let optional: UInt = 0x202
  static let tuple: UInt = 0x301
}

/// The metadata record of a type, as a pointer.
func metadataPointer(of type: Any.Type) -> UnsafeRawPointer {
  unsafeBitCast(type, to: UnsafeRawPointer.self)
}

/// The declared type of the payload a `Mirror` child holds, read from the `Any` container.
///
/// `Mirror` builds each enum child as an `Any` whose type is the case's declared payload type
/// (even when that type is an existential), so this names the payload's static type.
func storedType(of child: Any) -> UnsafeRawPointer {
  // Wrapped, so that Swift does not open the existential: the bytes are the `Any` container's.
  struct Container { var value: Any }
  return withUnsafeBytes(of: Container(value: child)) {
    $0.load(fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
  }
}

/// Whether a payload of type `payload` can be read as a `Value` bit for bit.
///
/// True for the same type; for two tuple types with the same element types (labels do not change
/// a tuple's layout); and for a one-element tuple and its element, which is how the payload of
/// `case named(id: Int)` is stored.
func isLayoutCompatible(payload: UnsafeRawPointer, value: UnsafeRawPointer) -> Bool {
  if payload == value { return true }
  let payloadType = TypeMetadata(payload)
  if payloadType.kind == MetadataKind.tuple, payloadType.tupleCount == 1,
    payloadType.tupleElement(0) == value
  {
    return true
  }
  let valueType = TypeMetadata(value)
  guard
    payloadType.kind == MetadataKind.tuple,
    valueType.kind == MetadataKind.tuple,
    payloadType.tupleCount == valueType.tupleCount
  else { return false }
  return (0..<payloadType.tupleCount).allSatisfy {
    payloadType.tupleElement($0) == valueType.tupleElement($0)
  }
}

/// Whether no value of type `payload` can ever be cast (`as?`) to type `value`.
///
/// Answers `true` only when sure: for two different nominal structs or enums (casts never convert
/// between them, except to and from `AnyHashable`, and between one generic collection's
/// instances); for a
/// tuple against a struct or enum; for tuples of different sizes or with an impossible element
/// pair; and for an optional whose wrapped type can never be cast to a non-optional `value`.
/// Classes, existentials, functions and anything else may cast, depending on the value.
func castIsImpossible(from payload: UnsafeRawPointer, to value: UnsafeRawPointer) -> Bool {
  let anyHashable = metadataPointer(of: AnyHashable.self)
  if payload == value || payload == anyHashable || value == anyHashable { return false }
  let from = TypeMetadata(payload)
  let to = TypeMetadata(value)
  let nominal = [MetadataKind.struct, MetadataKind.enum]
  switch (from.kind, to.kind) {
  case let (fromKind, toKind) where nominal.contains(fromKind) && nominal.contains(toKind):
    return from.nominalDescriptor != to.nominalDescriptor
  case let (fromKind, MetadataKind.tuple) where nominal.contains(fromKind):
    return true
  case let (MetadataKind.tuple, toKind) where nominal.contains(toKind):
    return true
  case (MetadataKind.tuple, MetadataKind.tuple):
    guard from.tupleCount == to.tupleCount else { return true }
    return (0..<from.tupleCount).contains {
      castIsImpossible(from: from.tupleElement($0), to: to.tupleElement($0))
    }
  case let (MetadataKind.optional, toKind) where toKind != MetadataKind.optional:
    return castIsImpossible(from: from.optionalWrapped, to: value)
  default:
    return false
  }
}

/// A type's metadata record, read word by word.
///
/// The reads go through functions the optimizer may not inline or fold: when a record is a
/// constant it can see, LLVM treats reads past the end of the part it knows as undefined.
struct TypeMetadata {
  let pointer: UnsafeRawPointer

  init(_ pointer: UnsafeRawPointer) {
    self.pointer = pointer
  }

  var kind: UInt { readWord(pointer, 0) }
  /// The nominal type descriptor of a struct, enum or optional.
  var nominalDescriptor: UInt { readWord(pointer, 1) }
  /// The wrapped type of an optional.
  var optionalWrapped: UnsafeRawPointer { UnsafeRawPointer(bitPattern: readWord(pointer, 2))! }
  /// The number of elements of a tuple.
  var tupleCount: Int { Int(bitPattern: readWord(pointer, 1)) }

  /// The type of a tuple's element.
  func tupleElement(_ index: Int) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: readWord(pointer, 3 + 2 * index))!
  }
}

/// The `index`th word of the record at `pointer`.
@inline(never) @_optimize(none)
private func readWord(_ pointer: UnsafeRawPointer, _ index: Int) -> UInt {
  pointer.load(fromByteOffset: index * MemoryLayout<UInt>.size, as: UInt.self)
}
