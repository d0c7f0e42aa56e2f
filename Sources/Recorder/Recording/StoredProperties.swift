/// The stored properties of a struct, read from its runtime metadata: their names in declaration
/// order, and which are `let`. `Mirror` gives the names but not `let`, which decides whether a
/// generated test may assign a member or must build the value anew.
///
/// Read from the struct's field records (``FieldRecord``), whose flags say `var` (bit 1).
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
    guard readMetadataWord(metadata, 0) == 0x200,
      let records = FieldRecord.all(of: metadata)
    else { return nil }
    return records.map { Property(name: $0.name, isVar: $0.flags & 0x2 != 0) }
  }
}
