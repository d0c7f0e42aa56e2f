/// A JSON value: the in-memory form of every state, action and patch in a trace.
///
/// Integers keep their exact value: `integer` holds everything that fits `Int64`, and
/// `unsignedInteger` holds only the `UInt64` values above `Int64.max`, so each integer has exactly
/// one representation. Any other number is a `double`.
///
/// Equality follows JSON semantics as RFC 6902's `test` operation defines them: objects compare
/// regardless of member order, numbers compare by numeric value (`1` equals `1.0`), and strings
/// compare as Swift strings. Hashing agrees with that equality.
public enum JSONValue: Sendable {
  /// The JSON literal `null`.
  case null
  /// The JSON literals `true` and `false`.
  case bool(Bool)
  /// An integer that fits `Int64`.
  case integer(Int64)
  /// An integer above `Int64.max`; smaller values use ``integer(_:)``.
  case unsignedInteger(UInt64)
  /// A floating-point number.
  case double(Double)
  /// A string.
  case string(String)
  /// An ordered list of values.
  case array([JSONValue])
  /// A string-keyed object that remembers the order its members were inserted in.
  case object(JSONObject)
}

extension JSONValue {
  /// Makes the integer case that holds `value`: ``integer(_:)`` when it fits `Int64`.
  @inlinable
  public static func number(_ value: UInt64) -> JSONValue {
    value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value)
  }

  /// The name of this value's JSON type: "null", "boolean", "number", "string", "array", "object".
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .integer, .unsignedInteger, .double: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// Whether this value is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The boolean, if this value is one.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The string, if this value is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number as `Int64`, if this value is a number with that exact value.
  public var int64Value: Int64? {
    switch self {
    case .integer(let value): value
    case .unsignedInteger(let value): Int64(exactly: value)
    case .double(let value): Int64(exactly: value)
    default: nil
    }
  }

  /// The number as `Double`, if this value is a number (rounded if it has no exact `Double`).
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .unsignedInteger(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  /// The elements, if this value is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The object, if this value is one.
  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The member named `key`, if this value is an object that has it.
  public subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// The element at `index`, if this value is an array and the index is in range.
  public subscript(index: Int) -> JSONValue? {
    if case .array(let array) = self, array.indices.contains(index) { return array[index] }
    return nil
  }
}
