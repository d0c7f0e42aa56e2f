/// The stored properties of a struct, read from its runtime metadata: their names in declaration
/// order, and which are `let`. `Mirror` gives the names but not `let`, which decides whether a
/// generated test may assign a member or must build the value anew.
///
/// Layouts used (stable Swift ABI, `swift/ABI/Metadata.h`): word 0 of a struct's metadata is its
/// kind (`0x200`), word 1 its nominal type descriptor, whose field descriptor is the relative
/// pointer at byte 16. A field descriptor's records start at byte 16, `recordSize` bytes apart;
/// each holds its flags (bit 1: `IsVar`) and, at byte 8, a relative pointer to its name.
enum StoredProperties {
  /// One stored property: its name (`_name` for a property wrapper's storage) and whether it
  /// is a `var`.
  struct Property: Equatable {
    var name: String
    var isVar: Bool
  }

  /// The stored properties of `type` in declaration order; `nil` when it is not a struct or its
  /// metadata has no field records.
  static func of(_ type: Any.Type) -> [Property]? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: UInt.self) == 0x200 else { return nil }
    let descriptor = metadata.load(
      fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
    guard let fields = relative(descriptor + 16) else { return nil }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard recordSize >= 12 else { return count == 0 ? [] : nil }
    var properties: [Property] = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      let flags = record.load(as: UInt32.self)
      guard let name = relative(record + 8) else { return nil }
      properties.append(
        Property(
          name: String(cString: name.assumingMemoryBound(to: CChar.self)),
          isVar: flags & 0x2 != 0
        )
      )
    }
    return properties
  }

  /// The target of the 32-bit relative pointer at `pointer`; `nil` when it is null.
  private static func relative(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = pointer.load(as: Int32.self)
    return offset == 0 ? nil : pointer + Int(offset)
  }
}
