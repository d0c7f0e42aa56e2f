/// The keyed container of `JSONValueDecoder`: reads members of one object.
struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let node: JSONDecodingNode
  let object: JSONObject

  var codingPath: [any CodingKey] { node.codingPath }

  /// The keys present in the object that `Key` can represent, in stored order.
  var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { object.contains(key: key.stringValue) }

  /// The member for `key`, or `keyNotFound`.
  @inline(__always)
  private func member(_ key: Key) throws -> JSONValue {
    guard let value = object[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: node.codingPath,
          debugDescription:
            "No value for key '\(key.stringValue)' at \(node.path(nil))."))
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try node.bool(member(key), at: .key(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try node.string(member(key), at: .key(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try node.double(member(key), type, at: .key(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try node.double(member(key), type, at: .key(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try node.integer(member(key), type, at: .key(key))
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try node.integer(member(key), type, at: .key(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try node.unbox(member(key), as: type, at: .key(key))
  }

  /// One lookup instead of the default's three (`contains`, `decodeNil`, `decode`).
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = object[key.stringValue], !value.isNull else { return nil }
    return try node.unbox(value, as: type, at: .key(key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type,
    forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let value = try member(key)
    guard case .object(let nested) = value else {
      throw node.mismatch([String: Any].self, value, at: .key(key), expected: "an object")
    }
    let child = JSONDecodingNode(
      value: value, parent: node, component: .key(key), userInfo: node.userInfo)
    return KeyedDecodingContainer(
      JSONKeyedDecodingContainer<NestedKey>(node: child, object: nested))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let value = try member(key)
    guard case .array(let elements) = value else {
      throw node.mismatch([Any].self, value, at: .key(key), expected: "an array")
    }
    let child = JSONDecodingNode(
      value: value, parent: node, component: .key(key), userInfo: node.userInfo)
    return JSONUnkeyedDecodingContainer(node: child, elements: elements)
  }

  func superDecoder() throws -> any Decoder {
    let key = JSONCodingKey.super
    return JSONDecodingNode(
      value: object[key.stringValue] ?? .null, parent: node, component: .key(key),
      userInfo: node.userInfo)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    JSONDecodingNode(
      value: object[key.stringValue] ?? .null, parent: node, component: .key(key),
      userInfo: node.userInfo)
  }
}
