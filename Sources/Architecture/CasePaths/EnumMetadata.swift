/// What the Swift runtime knows about an enum type: its case tags and how to take a payload out.
///
/// Reading an enum's case through `Mirror` costs microseconds; reading its tag through the type's
/// value witness table costs nanoseconds. This type reads the runtime's metadata once per case path
/// and keeps two enum value witnesses (`getEnumTag`, `destructiveProjectEnumData`) and the type's
/// reflection records (for the per-case "indirect" flags).
///
/// Layouts used (all stable Swift ABI, see `swift/ABI/Metadata.h` and `ValueWitness.def`):
/// - metadata word 0 is the kind (`0x201` enum, `0x202` optional), word 1 the type descriptor,
///   and the word before the metadata points to the value witness table;
/// - the value witness table holds 8 function pointers, `size`, `stride`, `flags` (32 bits) and
///   `extraInhabitantCount` (32 bits), followed, for enums, by `getEnumTag`,
///   `destructiveProjectEnumData` and `destructiveInjectEnumTag`;
/// - the enum descriptor holds, after 4 32-bit words, a relative pointer to its field descriptor,
///   whose 12-byte records list payload cases first, so record `n` describes tag `n`; bit 0 of a
///   record's flags marks an `indirect` case.
@usableFromInline
// unchecked: pointers into the runtime's type metadata, immutable for the life of the process
struct EnumMetadata: @unchecked Sendable {
  @usableFromInline
  typealias GetTag = @convention(thin) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  @usableFromInline
  typealias ProjectData = @convention(thin) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void

  /// The type's metadata record.
  @usableFromInline let metadata: UnsafeRawPointer
  @usableFromInline let getTag: GetTag
  @usableFromInline let projectData: ProjectData
  /// The field descriptor, or `nil` when the type was compiled without reflection metadata.
  private let fields: UnsafeRawPointer?

  /// Reads the metadata of `type`, or returns `nil` when `type` is not an enum or an optional.
  @usableFromInline
  init?(_ type: Any.Type) {
    guard let witnesses = readEnumWitnesses(type) else { return nil }
    self.metadata = witnesses.metadata
    self.getTag = unsafeBitCast(witnesses.getTag, to: GetTag.self)
    self.projectData = unsafeBitCast(witnesses.projectData, to: ProjectData.self)
    self.fields = witnesses.fields
  }

  /// The tag of the value's case: payload cases count from 0 in declaration order, then the
  /// cases without a payload.
  @inlinable @inline(__always)
  func tag<Root>(of root: Root) -> UInt32 {
    withUnsafePointer(to: root) { self.getTag(UnsafeRawPointer($0), self.metadata) }
  }

  /// Whether the case with this tag is `indirect`, or `nil` if the type has no reflection records.
  func isIndirect(tag: UInt32) -> Bool? {
    guard let fields else { return nil }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let recordCount = fields.load(fromByteOffset: 12, as: UInt32.self)
    guard recordSize >= 4, tag < recordCount else { return nil }
    let flags = fields.load(fromByteOffset: 16 + Int(tag) * recordSize, as: UInt32.self)
    return flags & 0x1 != 0
  }

  /// The name of the case with this tag, or `nil` if the type has no reflection records.
  ///
  /// A field record's third word is a relative pointer to the case's name.
  func caseName(tag: UInt32) -> String? {
    guard let fields else { return nil }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let recordCount = fields.load(fromByteOffset: 12, as: UInt32.self)
    guard recordSize >= 12, tag < recordCount else { return nil }
    let nameField = fields + 16 + Int(tag) * recordSize + 8
    let offset = nameField.load(as: Int32.self)
    guard offset != 0 else { return nil }
    return String(cString: (nameField + Int(offset)).assumingMemoryBound(to: CChar.self))
  }

  /// Takes the payload out of a copy of `root`, without copying it again.
  ///
  /// - Precondition: `root`'s case is not `indirect` and its payload's type has the layout of
  ///   `Value`. Callers establish this once per case, with `storedType(of:)` and
  ///   `isLayoutCompatible(payload:value:)`.
  @inlinable @inline(__always)
  func projectPayload<Root, Value>(of root: Root, as _: Value.Type) -> Value {
    let size = Swift.max(MemoryLayout<Root>.size, 1)
    return withUnsafeTemporaryAllocation(
      byteCount: size,
      alignment: MemoryLayout<Root>.alignment
    ) { buffer in
      let storage = buffer.baseAddress!
      storage.initializeMemory(as: Root.self, repeating: root, count: 1)
      self.projectData(storage, self.metadata)
      // The projected storage now holds exactly one `Value`; moving it out leaves nothing to
      // destroy.
      return storage.bindMemory(to: Value.self, capacity: 1).move()
    }
  }
}

/// The words of a type's metadata that this module reads.
private struct EnumWitnesses {
  var metadata: UnsafeRawPointer
  var getTag: UnsafeRawPointer
  var projectData: UnsafeRawPointer
  var fields: UnsafeRawPointer?
}

/// Reads an enum's witnesses from its metadata.
///
/// Kept out of line and unoptimized on purpose: when the metadata is a constant the optimizer can
/// see (a non-generic enum in this module), LLVM treats reads past the end of the value witness
/// table it knows about as undefined, and folds them away.
@inline(never) @_optimize(none)
private func readEnumWitnesses(_ type: Any.Type) -> EnumWitnesses? {
  let word = MemoryLayout<UnsafeRawPointer>.size
  let metadata = metadataPointer(of: type)
  let kind = metadata.load(as: UInt.self)
  guard kind == MetadataKind.enum || kind == MetadataKind.optional else { return nil }
  let witnessTable = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
  // 8 witness functions, `size`, `stride`, then two 32-bit fields.
  let enumWitnessesOffset = 10 * word + 8
  let getTag = witnessTable.load(fromByteOffset: enumWitnessesOffset, as: UnsafeRawPointer.self)
  let projectData = witnessTable.load(
    fromByteOffset: enumWitnessesOffset + word, as: UnsafeRawPointer.self
  )
  var fields: UnsafeRawPointer?
  if let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self) {
    let fieldsOffset = descriptor.load(fromByteOffset: 16, as: Int32.self)
    if fieldsOffset != 0 {
      fields = descriptor + 16 + Int(fieldsOffset)
    }
  }
  return EnumWitnesses(
    metadata: metadata, getTag: getTag, projectData: projectData, fields: fields
  )
}
