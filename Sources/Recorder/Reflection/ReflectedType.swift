@_spi(Reflection) import Swift
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the Swift runtime says about a type's layout: enough to read any value of it and to
/// build one from its parts, without a conformance.
///
/// Read once per type and kept. The layouts used are the stable Swift ABI
/// (`swift/ABI/Metadata.h`, `ValueWitness.def`, `swift/RemoteInspection/Records.h`):
/// - a metadata record's word 0 is its kind, a struct's or enum's word 1 its nominal type
///   descriptor, its generic arguments from word 2; the word before the record points to the
///   value witness table;
/// - a struct's stored properties come from the standard library's `_forEachField`;
/// - an enum descriptor's fifth 32-bit word is a relative pointer to its field descriptor, whose
///   records (payload cases first, so record `n` describes tag `n`) hold a flags word, the
///   payload's mangled type name and the case's name, as relative pointers;
/// - an enum's value witness table ends with `getEnumTag`, `destructiveProjectEnumData` and
///   `destructiveInjectEnumTag`;
/// - a tuple's record holds its element count, its labels, then an (element type, 32-bit
///   offset) pair per element, a word each.
struct ReflectedType: Sendable {
  enum Kind {
    case structure([Field])
    case enumeration([Case])
    case tuple([Field])
    case optional(wrapped: Any.Type)
    /// A class, a function, an existential, a metatype: nothing reflection can rebuild.
    case opaque(String)
  }

  /// A struct's stored property or a tuple's element.
  struct Field {
    /// The property's name as declared (`_name` for a property wrapper's storage).
    let name: String
    /// The key it is recorded under: `name` without the underscore of a wrapper's storage; a
    /// tuple element's label, or `_0`, `_1`… when unlabelled, as synthesized `Codable` writes.
    let key: String
    let offset: Int
    let type: Any.Type
    /// Whether `type` is an `Optional`, whose `nil` is left out.
    var isOptional: Bool {
      readMetadataWord(unsafeBitCast(type, to: UnsafeRawPointer.self), 0) == 0x202
    }
  }

  struct Case {
    let name: String
    /// The payload's type; a tuple for several values or a labelled one.
    let payload: Any.Type?
    let isIndirect: Bool
  }

  /// How a value of the type is written: decided once, since every failed `as? any P` looks
  /// the conformance up again.
  enum Plan {
    /// By its ``ReflectedFirst`` form, even though it is `Encodable`.
    case first
    /// By its own `Encodable` conformance.
    case encodable
    /// By its ``ReflectedForm``.
    case form
    /// By its kind, below.
    case reflect
  }

  let type: Any.Type
  let kind: Kind
  let plan: Plan

  /// The reflected layout of `type`, read once and kept.
  static func of(_ type: Any.Type) -> ReflectedType {
    let key = ObjectIdentifier(type)
    if let known = cache.withLock({ $0[key] }) { return known }
    let reflected = ReflectedType(reading: type)
    cache.withLock { $0[key] = reflected }
    return reflected
  }

  private static let cache = Mutex<[ObjectIdentifier: ReflectedType]>([:])

  private init(reading type: Any.Type) {
    self.type = type
    plan =
      if type is any ReflectedFirst.Type { .first }
      else if type is any Encodable.Type { .encodable }
      else if type is any ReflectedForm.Type { .form }
      else { .reflect }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    switch readMetadataWord(metadata, 0) {
    case 0x200: kind = Self.structure(type)
    case 0x201: kind = Self.enumeration(metadata)
    case 0x202:
      kind = .optional(
        wrapped: unsafeBitCast(readMetadataWord(metadata, 2), to: Any.Type.self))
    case 0x301: kind = .tuple(Self.tupleElements(metadata))
    default: kind = .opaque(String(reflecting: type))
    }
  }

  private static func structure(_ type: Any.Type) -> Kind {
    var fields: [Field] = []
    let complete = _forEachField(of: type) { name, offset, fieldType, _ in
      let name = String(cString: name)
      fields.append(
        Field(
          name: name, key: recordedKey(ofProperty: name, type: fieldType), offset: offset,
          type: fieldType))
      return true
    }
    return complete ? .structure(fields) : .opaque(String(reflecting: type))
  }

  private static func enumeration(_ metadata: UnsafeRawPointer) -> Kind {
    let opaque = Kind.opaque(String(reflecting: unsafeBitCast(metadata, to: Any.Type.self)))
    guard let records = FieldRecord.all(of: metadata) else { return opaque }
    let descriptor = UnsafeRawPointer(bitPattern: readMetadataWord(metadata, 1))!
    var cases: [Case] = []
    for record in records {
      var payload: Any.Type?
      if let name = record.mangledTypeName {
        payload = typeByMangledName(name, context: descriptor, arguments: metadata + 16)
        if payload == nil { return opaque }
      }
      cases.append(Case(name: record.name, payload: payload, isIndirect: record.flags & 1 != 0))
    }
    return .enumeration(cases)
  }

  private static func tupleElements(_ metadata: UnsafeRawPointer) -> [Field] {
    let count = Int(readMetadataWord(metadata, 1))
    var labels: [String] = []
    if let text = UnsafePointer<CChar>(bitPattern: readMetadataWord(metadata, 2)) {
      labels = String(cString: text).split(separator: " ", omittingEmptySubsequences: false)
        .map(String.init)
    }
    return (0..<count).map { index in
      let label = index < labels.count ? labels[index] : ""
      return Field(
        name: label.isEmpty ? ".\(index)" : label,
        key: label.isEmpty ? "_\(index)" : label,
        // The offset is 32 bits; the rest of its word is padding.
        offset: Int(UInt32(truncatingIfNeeded: readMetadataWord(metadata, 4 + 2 * index))),
        type: unsafeBitCast(readMetadataWord(metadata, 3 + 2 * index), to: Any.Type.self))
    }
  }

  /// The key a stored property is recorded under: synthesized `Codable` writes a property
  /// wrapper's storage `_name` as `name`.
  private static func recordedKey(ofProperty name: String, type: Any.Type) -> String {
    guard name.hasPrefix("_"), type is any PropertyWrapperStorage.Type else { return name }
    return String(name.dropFirst())
  }
}

/// Property wrappers whose storage `_name` records under `name`, as synthesized `Codable` does.
protocol PropertyWrapperStorage {}

/// An enum's case tag, and the witness that sets it.
struct EnumWitnesses {
  typealias GetTag = @convention(thin) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  typealias InjectTag = @convention(thin) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) ->
    Void

  let metadata: UnsafeRawPointer
  let getTag: GetTag
  let injectTag: InjectTag

  init(_ type: Any.Type) {
    metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let table = UnsafeRawPointer(bitPattern: readMetadataWord(metadata, -1))!
    // 8 witness functions, `size`, `stride`, two 32-bit fields, then the enum witnesses.
    getTag = unsafeBitCast(readMetadataWord(table, 10, extra: 8), to: GetTag.self)
    injectTag = unsafeBitCast(readMetadataWord(table, 12, extra: 8), to: InjectTag.self)
  }

  func tag<Value>(of value: Value) -> UInt32 {
    withUnsafePointer(to: value) { getTag(UnsafeRawPointer($0), metadata) }
  }
}

/// One record of a struct's or an enum's field descriptor: a stored property, or a case.
///
/// A nominal type descriptor's fifth 32-bit word is a relative pointer to its field descriptor,
/// whose records start at byte 16, `recordSize` bytes apart (the size at byte 10, the count at
/// byte 12). A record holds its flags (bit 0: an `indirect` case, bit 1: a `var`), then relative
/// pointers to its type's mangled name and to its name.
struct FieldRecord {
  let flags: UInt32
  /// The mangled name of the field's type, or of a case's payload; `nil` for a case without one.
  let mangledTypeName: UnsafePointer<UInt8>?
  let name: String

  /// The records of the struct or enum whose metadata is at `metadata`, in declaration order
  /// (an enum's payload cases first); `nil` when its type was compiled without them.
  static func all(of metadata: UnsafeRawPointer) -> [FieldRecord]? {
    guard let descriptor = UnsafeRawPointer(bitPattern: readMetadataWord(metadata, 1)),
      let fields = relative(descriptor + 16)
    else { return nil }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard recordSize >= 12 else { return count == 0 ? [] : nil }
    var records: [FieldRecord] = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      guard let name = relative(record + 8) else { return nil }
      records.append(
        FieldRecord(
          flags: record.load(as: UInt32.self),
          mangledTypeName: relative(record + 4)?.assumingMemoryBound(to: UInt8.self),
          name: String(cString: name.assumingMemoryBound(to: CChar.self))))
    }
    return records
  }

  /// The target of the 32-bit relative pointer at `pointer`; `nil` when it is null.
  private static func relative(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = pointer.load(as: Int32.self)
    return offset == 0 ? nil : pointer + Int(offset)
  }
}

/// The `index`th word at `pointer`, plus `extra` bytes.
///
/// Out of line and unoptimized: when a record is a constant the optimizer can see, LLVM treats
/// reads past the part it knows as undefined.
@inline(never) @_optimize(none)
func readMetadataWord(_ pointer: UnsafeRawPointer, _ index: Int, extra: Int = 0) -> UInt {
  pointer.load(fromByteOffset: index * MemoryLayout<UInt>.size + extra, as: UInt.self)
}

private typealias TypeByMangledName = @convention(c) (
  UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?
) -> UnsafeRawPointer?

/// The runtime's `swift_getTypeByMangledNameInContext`, looked up once: declaring it by name
/// is reserved to the runtime.
private let runtimeTypeByMangledName: TypeByMangledName? = {
  guard let symbol = dlsym(nil, "swift_getTypeByMangledNameInContext") else { return nil }
  return unsafeBitCast(symbol, to: TypeByMangledName.self)
}()

/// The type a field record's mangled name denotes, in the generic context of `context`.
private func typeByMangledName(
  _ name: UnsafePointer<UInt8>, context: UnsafeRawPointer, arguments: UnsafeRawPointer
) -> Any.Type? {
  guard let lookup = runtimeTypeByMangledName else { return nil }
  // A mangled name may embed symbolic references: a byte 1...0x17 and a 32-bit offset, or a
  // byte 0x18...0x1F and a pointer.
  var length = 0
  while name[length] != 0 {
    switch name[length] {
    case 0x01...0x17: length += 5
    case 0x18...0x1F: length += 1 + MemoryLayout<UInt>.size
    default: length += 1
    }
  }
  return lookup(name, UInt(length), context, arguments).map {
    unsafeBitCast($0, to: Any.Type.self)
  }
}
