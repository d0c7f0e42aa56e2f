import TraceJSON

/// What a value's own `encode(to:)` hands its encoder, one level deep: the members of one keyed
/// container, in the order written, or the one value of a single-value container.
///
/// The state differ walks a large state through these shapes instead of through its stored
/// properties, so that what it writes is what `Encodable` says, key for key and value for
/// value: a renamed coding key, a member left out of `CodingKeys` and a member that a custom
/// `encode(to:)` writes masked all come out as the encoding has them. Anything the shape cannot
/// describe exactly is ``opaque``, and the differ encodes that value whole.
///
/// Taking a shape runs the value's `encode(to:)` against a probe that keeps each member's value
/// without encoding it, so its cost is one call per member, whatever the members hold.
enum EncodedShape {
  /// One member of a keyed container: its key and the value written under it.
  struct Member {
    let key: String
    /// The value, or `JSONValue.null` for `encodeNil(forKey:)`.
    let value: any Encodable
  }

  /// A keyed container whose members are written once each, as whole values.
  case keyed([Member])
  /// A single-value container holding this value (`JSONValue.null` for `encodeNil()`).
  case single(any Encodable)
  /// Anything else: nested or unkeyed containers, a super encoder, a key written twice, more
  /// than one container, a read of the coding path, a thrown error, or nothing written.
  case opaque

  /// Members past this many make a shape opaque: the probe checks for repeated keys by search.
  static var memberLimit: Int { 64 }

  /// The shape `value`'s `encode(to:)` writes.
  static func of(_ value: any Encodable) -> EncodedShape {
    let probe = ShapeProbe()
    do {
      try value.encode(to: probe)
    } catch {
      return .opaque
    }
    switch probe.state {
    case .keyed where !probe.isOpaque: return .keyed(probe.members)
    case .single(let inner?) where !probe.isOpaque: return .single(inner)
    default: return .opaque
    }
  }
}

/// The encoder an ``EncodedShape`` is taken with.
private final class ShapeProbe: Encoder {
  enum State {
    case empty
    case keyed
    case single((any Encodable)?)
  }

  var state = State.empty
  var members: [EncodedShape.Member] = []
  /// Set by anything a shape cannot describe.
  var isOpaque = false

  /// Reading the path makes the shape opaque: a value that looks at where it is encoded may
  /// encode differently when the differ encodes it on its own.
  var codingPath: [any CodingKey] {
    isOpaque = true
    return []
  }

  /// What the differ's encoder hands every value: nothing.
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .empty = state { state = .keyed } else { isOpaque = true }
    return KeyedEncodingContainer(ShapeProbeKeyed<Key>(probe: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    isOpaque = true
    return ShapeProbeUnkeyed()
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    if case .empty = state {} else { isOpaque = true }
    return ShapeProbeSingle(probe: self)
  }

  func add(_ value: any Encodable, forKey key: String) {
    guard !isOpaque else { return }
    if members.count >= EncodedShape.memberLimit || members.contains(where: { $0.key == key }) {
      isOpaque = true
      return
    }
    members.append(EncodedShape.Member(key: key, value: value))
  }

  func setSingle(_ value: any Encodable) {
    if case .single(nil) = state {
      state = .single(value)
    } else {
      isOpaque = true
    }
  }
}

private struct ShapeProbeKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let probe: ShapeProbe

  var codingPath: [any CodingKey] { probe.codingPath }

  mutating func encodeNil(forKey key: Key) throws {
    probe.add(JSONValue.null, forKey: key.stringValue)
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { add(value, key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { add(value, key) }

  private func add<T: Encodable>(_ value: T, _ key: Key) {
    probe.add(value, forKey: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    probe.isOpaque = true
    return ShapeProbe().container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    probe.isOpaque = true
    return ShapeProbeUnkeyed()
  }

  mutating func superEncoder() -> any Encoder {
    probe.isOpaque = true
    return ShapeProbe()
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}

/// What an unkeyed container writes is not kept: a shape that asks for one is opaque.
private struct ShapeProbeUnkeyed: UnkeyedEncodingContainer {
  var codingPath: [any CodingKey] { [] }
  var count = 0

  mutating func encodeNil() throws { count += 1 }
  mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    count += 1
    return ShapeProbe().container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    count += 1
    return ShapeProbeUnkeyed()
  }

  mutating func superEncoder() -> any Encoder { ShapeProbe() }
}

private struct ShapeProbeSingle: SingleValueEncodingContainer {
  let probe: ShapeProbe

  init(probe: ShapeProbe) {
    self.probe = probe
    if case .empty = probe.state { probe.state = .single(nil) }
  }

  var codingPath: [any CodingKey] { probe.codingPath }

  mutating func encodeNil() throws { probe.setSingle(JSONValue.null) }
  mutating func encode(_ value: Bool) throws { probe.setSingle(value) }
  mutating func encode(_ value: String) throws { probe.setSingle(value) }
  mutating func encode(_ value: Double) throws { probe.setSingle(value) }
  mutating func encode(_ value: Float) throws { probe.setSingle(value) }
  mutating func encode(_ value: Int) throws { probe.setSingle(value) }
  mutating func encode(_ value: Int8) throws { probe.setSingle(value) }
  mutating func encode(_ value: Int16) throws { probe.setSingle(value) }
  mutating func encode(_ value: Int32) throws { probe.setSingle(value) }
  mutating func encode(_ value: Int64) throws { probe.setSingle(value) }
  mutating func encode(_ value: UInt) throws { probe.setSingle(value) }
  mutating func encode(_ value: UInt8) throws { probe.setSingle(value) }
  mutating func encode(_ value: UInt16) throws { probe.setSingle(value) }
  mutating func encode(_ value: UInt32) throws { probe.setSingle(value) }
  mutating func encode(_ value: UInt64) throws { probe.setSingle(value) }
  mutating func encode<T: Encodable>(_ value: T) throws { probe.setSingle(value) }
}
