import Foundation

/// The `Decoder` behind `JSONValueDecoder`: one node per value being decoded.
///
/// Each node knows its parent and the step from it, so `codingPath` is only assembled when an
/// error (or a type that asks) needs it. Errors are `DecodingError`s whose context carries the
/// full coding path and whose description names it in readable form (`at todos[3].title`).
final class JSONDecodingNode: Decoder {
  let value: JSONValue
  let parent: JSONDecodingNode?
  let component: JSONCodingPathComponent?
  let userInfo: [CodingUserInfoKey: Any]

  init(
    value: JSONValue,
    parent: JSONDecodingNode?,
    component: JSONCodingPathComponent?,
    userInfo: [CodingUserInfoKey: Any]
  ) {
    self.value = value
    self.parent = parent
    self.component = component
    self.userInfo = userInfo
  }

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var node: JSONDecodingNode? = self
    while let current = node {
      if let component = current.component { path.append(component.codingKey) }
      node = current.parent
    }
    return path.reversed()
  }

  /// This node's path with one more step.
  func codingPath(appending component: JSONCodingPathComponent?) -> [any CodingKey] {
    var path = codingPath
    if let component { path.append(component.codingKey) }
    return path
  }

  // MARK: Containers

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = value else {
      throw mismatch([String: Any].self, value, at: nil, expected: "an object")
    }
    return KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(node: self, object: object))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw mismatch([Any].self, value, at: nil, expected: "an array")
    }
    return JSONUnkeyedDecodingContainer(node: self, elements: elements)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    self
  }

  // MARK: Values

  /// Decodes `value`, found at `component` below this node, as a `T`.
  @inline(__always)
  func unbox<T: Decodable>(
    _ value: JSONValue,
    as type: T.Type,
    at component: JSONCodingPathComponent?
  ) throws -> T {
    if let scalar = try scalar(value, as: type, at: component) { return scalar }
    let child = JSONDecodingNode(
      value: value, parent: self, component: component, userInfo: userInfo)
    return try T(from: child)
  }

  /// Decodes the types with a fixed JSON form directly; `nil` for every other type.
  @inline(__always)
  func scalar<T: Decodable>(
    _ value: JSONValue,
    as type: T.Type,
    at component: JSONCodingPathComponent?
  ) throws -> T? {
    if T.self == UUID.self { return unsafeBitCast(try uuid(value, at: component), to: T.self) }
    if T.self == String.self { return try string(value, at: component) as? T }
    if T.self == Date.self { return unsafeBitCast(try date(value, at: component), to: T.self) }
    if T.self == Int.self {
      return unsafeBitCast(try integer(value, Int.self, at: component), to: T.self)
    }
    if T.self == Bool.self { return unsafeBitCast(try bool(value, at: component), to: T.self) }
    if T.self == Double.self {
      return unsafeBitCast(try double(value, Double.self, at: component), to: T.self)
    }
    if T.self == JSONValue.self { return value as? T }
    if T.self == JSONObject.self {
      guard case .object(let object) = value else {
        throw mismatch(JSONObject.self, value, at: component, expected: "an object")
      }
      return object as? T
    }
    if T.self == Int64.self { return try integer(value, Int64.self, at: component) as? T }
    if T.self == Int32.self { return try integer(value, Int32.self, at: component) as? T }
    if T.self == Int16.self { return try integer(value, Int16.self, at: component) as? T }
    if T.self == Int8.self { return try integer(value, Int8.self, at: component) as? T }
    if T.self == UInt.self { return try integer(value, UInt.self, at: component) as? T }
    if T.self == UInt64.self { return try integer(value, UInt64.self, at: component) as? T }
    if T.self == UInt32.self { return try integer(value, UInt32.self, at: component) as? T }
    if T.self == UInt16.self { return try integer(value, UInt16.self, at: component) as? T }
    if T.self == UInt8.self { return try integer(value, UInt8.self, at: component) as? T }
    if T.self == Float.self { return try double(value, Float.self, at: component) as? T }
    if T.self == URL.self { return try url(value, at: component) as? T }
    if T.self == Data.self { return try data(value, at: component) as? T }
    return nil
  }

  func bool(_ value: JSONValue, at component: JSONCodingPathComponent?) throws -> Bool {
    guard case .bool(let flag) = value else {
      throw mismatch(Bool.self, value, at: component, expected: "a boolean")
    }
    return flag
  }

  func string(_ value: JSONValue, at component: JSONCodingPathComponent?) throws -> String {
    guard case .string(let string) = value else {
      throw mismatch(String.self, value, at: component, expected: "a string")
    }
    return string
  }

  /// An integer of type `T`: from an integer that fits, or a double with an integral value
  /// that fits.
  func integer<T: FixedWidthInteger>(
    _ value: JSONValue,
    _ type: T.Type,
    at component: JSONCodingPathComponent?
  ) throws -> T {
    let result: T?
    switch value {
    case .integer(let number): result = T(exactly: number)
    case .unsignedInteger(let number): result = T(exactly: number)
    case .double(let number): result = T(exactly: number)
    default: throw mismatch(T.self, value, at: component, expected: "a number")
    }
    guard let result else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath(appending: component),
          debugDescription: "Number \(value) does not fit in \(T.self) at \(path(component))."))
    }
    return result
  }

  /// A floating-point number: from any number, or from `"NaN"`, `"Infinity"`, `"-Infinity"`.
  func double<T: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: JSONValue,
    _ type: T.Type,
    at component: JSONCodingPathComponent?
  ) throws -> T {
    switch value {
    case .double(let number):
      let converted = T(number)
      if converted.isInfinite {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: codingPath(appending: component),
            debugDescription: "Number \(value) does not fit in \(T.self) at \(path(component))."))
      }
      return converted
    case .integer(let number):
      return T(number)
    case .unsignedInteger(let number):
      return T(number)
    case .string("NaN"):
      return .nan
    case .string("Infinity"):
      return .infinity
    case .string("-Infinity"):
      return -.infinity
    default:
      throw mismatch(T.self, value, at: component, expected: "a number")
    }
  }

  func date(_ value: JSONValue, at component: JSONCodingPathComponent?) throws -> Date {
    Date(timeIntervalSinceReferenceDate: try double(value, Double.self, at: component))
  }

  func uuid(_ value: JSONValue, at component: JSONCodingPathComponent?) throws -> UUID {
    let text = try string(value, at: component)
    guard let uuid = UUID(fastText: text) else {
      throw corrupted("Invalid UUID string \(value)", at: component)
    }
    return uuid
  }

  func url(_ value: JSONValue, at component: JSONCodingPathComponent?) throws -> URL {
    let text = try string(value, at: component)
    guard let url = URL(string: text) else {
      throw corrupted("Invalid URL string \(value)", at: component)
    }
    return url
  }

  func data(_ value: JSONValue, at component: JSONCodingPathComponent?) throws -> Data {
    let text = try string(value, at: component)
    guard let data = Data(base64Encoded: text) else {
      throw corrupted("Invalid base64 string", at: component)
    }
    return data
  }

  // MARK: Errors

  /// The readable path of the value at `component` below this node.
  func path(_ component: JSONCodingPathComponent?) -> String {
    JSONCodingPathComponent.render(codingPath(appending: component))
  }

  /// A type mismatch, or `valueNotFound` when the value is `null`.
  func mismatch(
    _ type: Any.Type,
    _ value: JSONValue,
    at component: JSONCodingPathComponent?,
    expected: String
  ) -> DecodingError {
    let context = DecodingError.Context(
      codingPath: codingPath(appending: component),
      debugDescription: "Expected \(expected) but found \(value.typeName) at \(path(component)).")
    if case .null = value { return .valueNotFound(type, context) }
    return .typeMismatch(type, context)
  }

  func corrupted(_ message: String, at component: JSONCodingPathComponent?) -> DecodingError {
    .dataCorrupted(
      DecodingError.Context(
        codingPath: codingPath(appending: component),
        debugDescription: "\(message) at \(path(component))."))
  }
}

extension JSONDecodingNode: SingleValueDecodingContainer {
  func decodeNil() -> Bool { value.isNull }
  func decode(_ type: Bool.Type) throws -> Bool { try bool(value, at: nil) }
  func decode(_ type: String.Type) throws -> String { try string(value, at: nil) }
  func decode(_ type: Double.Type) throws -> Double { try double(value, type, at: nil) }
  func decode(_ type: Float.Type) throws -> Float { try double(value, type, at: nil) }
  func decode(_ type: Int.Type) throws -> Int { try integer(value, type, at: nil) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(value, type, at: nil) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(value, type, at: nil) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(value, type, at: nil) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(value, type, at: nil) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(value, type, at: nil) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(value, type, at: nil) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(value, type, at: nil) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(value, type, at: nil) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(value, type, at: nil) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if let scalar = try scalar(value, as: type, at: nil) { return scalar }
    // The value is this node's value, so it decodes straight from this node.
    return try T(from: self)
  }
}
