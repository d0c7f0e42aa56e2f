/// The unkeyed container of `JSONValueDecoder`: reads the elements of one array in order.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
  let node: JSONDecodingNode
  let elements: [JSONValue]
  private(set) var currentIndex = 0

  init(node: JSONDecodingNode, elements: [JSONValue]) {
    self.node = node
    self.elements = elements
  }

  var codingPath: [any CodingKey] { node.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  /// The next element, or `valueNotFound` when the array is exhausted.
  @inline(__always)
  private func next(_ type: Any.Type) throws -> JSONValue {
    guard currentIndex < elements.count else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: node.codingPath(appending: .index(currentIndex)),
          debugDescription:
            "Expected \(type) but the array has only \(elements.count) elements at "
            + "\(node.path(nil))."))
    }
    return elements[currentIndex]
  }

  /// Decodes the next element with `body` and moves past it only if that succeeded.
  @inline(__always)
  private mutating func advance<T>(
    _ type: T.Type,
    _ body: (JSONDecodingNode, JSONValue, JSONCodingPathComponent) throws -> T
  ) throws -> T {
    let result = try body(node, next(type), .index(currentIndex))
    currentIndex += 1
    return result
  }

  mutating func decodeNil() throws -> Bool {
    guard try next(Never.self).isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    try advance(type) { try $0.bool($1, at: $2) }
  }
  mutating func decode(_ type: String.Type) throws -> String {
    try advance(type) { try $0.string($1, at: $2) }
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    try advance(type) { try $0.double($1, type, at: $2) }
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    try advance(type) { try $0.double($1, type, at: $2) }
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try advance(type) { try $0.integer($1, type, at: $2) }
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try advance(type) { try $0.unbox($1, as: type, at: $2) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try advance(KeyedDecodingContainer<NestedKey>.self) { node, value, component in
      guard case .object(let object) = value else {
        throw node.mismatch([String: Any].self, value, at: component, expected: "an object")
      }
      let child = JSONDecodingNode(
        value: value, parent: node, component: component, userInfo: node.userInfo)
      return KeyedDecodingContainer(
        JSONKeyedDecodingContainer<NestedKey>(node: child, object: object))
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try advance((any UnkeyedDecodingContainer).self) { node, value, component in
      guard case .array(let elements) = value else {
        throw node.mismatch([Any].self, value, at: component, expected: "an array")
      }
      let child = JSONDecodingNode(
        value: value, parent: node, component: component, userInfo: node.userInfo)
      return JSONUnkeyedDecodingContainer(node: child, elements: elements)
    }
  }

  mutating func superDecoder() throws -> any Decoder {
    try advance((any Decoder).self) { node, value, component in
      JSONDecodingNode(value: value, parent: node, component: component, userInfo: node.userInfo)
    }
  }
}
