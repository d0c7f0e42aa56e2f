/// The unkeyed container of `JSONValueEncoder`: appends elements to its node's array.
struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
  let node: JSONEncodingNode

  var codingPath: [any CodingKey] { node.codingPath }

  var count: Int { node.array.count }

  @inline(__always)
  private func append(_ value: JSONValue) {
    node.array.append(value)
  }

  mutating func encodeNil() throws { append(.null) }
  mutating func encode(_ value: Bool) throws { append(.bool(value)) }
  mutating func encode(_ value: String) throws { append(.string(value)) }
  mutating func encode(_ value: Double) throws { append(JSONEncodingNode.double(value)) }
  mutating func encode(_ value: Float) throws { append(JSONEncodingNode.float(value)) }
  mutating func encode(_ value: Int) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { append(.integer(value)) }
  mutating func encode(_ value: UInt) throws { append(.number(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { append(.integer(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { append(.number(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = node.array.count
    append(try node.box(value, at: .index(index)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(JSONKeyedEncodingContainer<NestedKey>(node: makeChild(kind: .object)))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    JSONUnkeyedEncodingContainer(node: makeChild(kind: .array))
  }

  mutating func superEncoder() -> any Encoder {
    makeChild(kind: .empty)
  }

  /// Reserves the next element with a placeholder and returns the node that will fill it.
  private func makeChild(kind: JSONEncodingNode.Kind) -> JSONEncodingNode {
    let index = node.array.count
    append(.null)
    return node.makeChild(at: .element(index), component: .index(index), kind: kind)
  }
}
