import TraceJSON

/// Writes any value to an `Encoder` as synthesized `Codable` would, by reflection.
///
/// The rules are ``Reflected``'s. Struct fields are read at their offsets, so a value is never
/// copied whole; an enum's case comes from its tag and its payload from `Mirror`.
enum ReflectionEncoding {
  static func encode<Value>(_ value: Value, to encoder: any Encoder) throws {
    let reflected = ReflectedType.of(Value.self)
    switch reflected.plan {
    case .first: return try (value as! any ReflectedFirst).reflectedEncodable.encode(to: encoder)
    case .encodable: return try (value as! any Encodable).encode(to: encoder)
    case .form: return try (value as! any ReflectedForm).reflectedEncodable.encode(to: encoder)
    case .reflect: break
    }
    switch reflected.kind {
    case .structure(let fields):
      var container = encoder.container(keyedBy: JSONCodingKey.self)
      try withUnsafeBytes(of: value) { bytes in
        for field in fields {
          let member = readField(field, in: bytes.baseAddress!)
          try encodeMember(member, forKey: field.key, mayBeNil: field.isOptional, in: &container)
        }
      }
    case .tuple(let fields):
      var container = encoder.container(keyedBy: JSONCodingKey.self)
      try withUnsafeBytes(of: value) { bytes in
        for field in fields {
          try encodeMember(
            readField(field, in: bytes.baseAddress!), forKey: field.key,
            mayBeNil: field.isOptional, in: &container)
        }
      }
    case .enumeration(let cases):
      let tag = Int(EnumWitnesses(Value.self).tag(of: value))
      guard tag < cases.count else { return try encodeOpaque(Value.self, to: encoder) }
      let enumCase = cases[tag]
      var container = encoder.container(keyedBy: JSONCodingKey.self)
      var payload = container.nestedContainer(
        keyedBy: JSONCodingKey.self, forKey: JSONCodingKey(stringValue: enumCase.name))
      guard let payloadType = enumCase.payload,
        let payloadValue = Mirror(reflecting: value).children.first?.value
      else { return }
      if case .tuple(let elements) = ReflectedType.of(payloadType).kind {
        let parts = Mirror(reflecting: payloadValue).children.map(\.value)
        // A one-element tuple `(id: Int)` is stored as its element.
        let values = parts.count == elements.count ? parts : [payloadValue]
        for (element, part) in zip(elements, values) {
          try encodeMember(part, forKey: element.key, mayBeNil: element.isOptional, in: &payload)
        }
      } else {
        try encodeMember(payloadValue, forKey: "_0", mayBeNil: true, in: &payload)
      }
    case .optional:
      var container = encoder.singleValueContainer()
      if let wrapped = Mirror(reflecting: value).children.first?.value {
        try container.encode(reflectedEncodable(wrapped))
      } else {
        try container.encodeNil()
      }
    case .opaque:
      try encodeOpaque(Value.self, to: encoder)
    }
  }

  /// `{"$opaque": "TypeName"}`: what a value reflection cannot rebuild is recorded as.
  static func encodeOpaque(_ type: Any.Type, to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: JSONCodingKey.self)
    try container.encode(String(reflecting: type), forKey: JSONCodingKey(stringValue: opaqueKey))
  }

  static let opaqueKey = "$opaque"

  /// A member, left out when it is `nil`, as `encodeIfPresent` leaves it.
  private static func encodeMember(
    _ member: Any, forKey key: String, mayBeNil: Bool,
    in container: inout KeyedEncodingContainer<JSONCodingKey>
  ) throws {
    if mayBeNil, let optional = member as? any OptionalValue {
      guard let wrapped = optional.wrappedAny else {
        // Written as nothing, but through `encodeIfPresent`, so the type is still learnt.
        return try optional.encodeAbsent(forKey: JSONCodingKey(stringValue: key), in: &container)
      }
      // Through `encodeIfPresent`, as synthesized `Codable` writes an optional, so the type is
      // learnt as optional from its first value: a later `nil` is then known to be one.
      func present<Wrapped: Encodable>(_ value: Wrapped) throws {
        try container.encodeIfPresent(value, forKey: JSONCodingKey(stringValue: key))
      }
      try present(reflectedEncodable(wrapped))
      return
    }
    try container.encode(reflectedEncodable(member), forKey: JSONCodingKey(stringValue: key))
  }

  /// A copy of the field at its offset in a value's bytes.
  static func readField(_ field: ReflectedType.Field, in base: UnsafeRawPointer) -> Any {
    func read<Field>(_: Field.Type) -> Any {
      (base + field.offset).assumingMemoryBound(to: Field.self).pointee
    }
    return _openExistential(field.type, do: read)
  }
}

/// An optional, whatever it wraps.
protocol OptionalValue {
  var wrappedAny: Any? { get }
  /// Writes `nil` under `key` with `encodeIfPresent`, typed by what the optional wraps.
  func encodeAbsent(
    forKey key: JSONCodingKey, in container: inout KeyedEncodingContainer<JSONCodingKey>
  ) throws
}

extension Optional: OptionalValue {
  var wrappedAny: Any? { self.map { $0 } }

  func encodeAbsent(
    forKey key: JSONCodingKey, in container: inout KeyedEncodingContainer<JSONCodingKey>
  ) throws {
    func absent<Value: Encodable>(_: Value.Type) throws {
      try container.encodeIfPresent(Value?.none, forKey: key)
    }
    if let encodable = Wrapped.self as? any Encodable.Type {
      try absent(encodable)
    } else {
      try absent(Reflected<Wrapped>.self)
    }
  }
}
