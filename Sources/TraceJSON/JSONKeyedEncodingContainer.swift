/// The keyed container of `JSONValueEncoder`: writes members into its node's object.
struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: JSONEncodingNode

  var codingPath: [any CodingKey] { node.codingPath }

  @inline(__always)
  private func set(_ value: JSONValue, for key: Key) {
    node.object[key.stringValue] = value
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(JSONEncodingNode.double(value), for: key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(JSONEncodingNode.float(value), for: key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    set(.integer(Int64(value)), for: key)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    set(.integer(Int64(value)), for: key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    set(.integer(Int64(value)), for: key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    set(.integer(Int64(value)), for: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), for: key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    set(.number(UInt64(value)), for: key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    set(.integer(Int64(value)), for: key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    set(.integer(Int64(value)), for: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    set(.integer(Int64(value)), for: key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(value), for: key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try node.box(value, at: .key(key)), for: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = makeChild(for: key, kind: .object)
    return KeyedEncodingContainer(JSONKeyedEncodingContainer<NestedKey>(node: child))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    JSONUnkeyedEncodingContainer(node: makeChild(for: key, kind: .array))
  }

  mutating func superEncoder() -> any Encoder {
    let name = JSONCodingKey.super.stringValue
    set(.null, forName: name)
    return node.makeChild(at: .member(name), component: .key(JSONCodingKey.super), kind: .empty)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    makeChild(for: key, kind: .empty)
  }

  /// Reserves `key`'s position with a placeholder and returns the node that will fill it.
  private func makeChild(for key: Key, kind: JSONEncodingNode.Kind) -> JSONEncodingNode {
    let name = key.stringValue
    set(.null, forName: name)
    return node.makeChild(at: .member(name), component: .key(key), kind: kind)
  }

  private func set(_ value: JSONValue, forName name: String) {
    node.object[name] = value
  }
}
