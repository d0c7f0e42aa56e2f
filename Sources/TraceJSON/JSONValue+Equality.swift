extension JSONValue: Equatable {
  /// JSON equality: objects ignore member order and numbers compare by value (RFC 6902 §4.6).
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null):
      return true
    case (.bool(let a), .bool(let b)):
      return a == b
    case (.string(let a), .string(let b)):
      return a == b
    case (.array(let a), .array(let b)):
      return a == b
    case (.object(let a), .object(let b)):
      return a == b
    case (.integer(let a), .integer(let b)):
      return a == b
    case (.double(let a), .double(let b)):
      return a == b || (a.isNaN && b.isNaN)
    case (.integer, _), (.unsignedInteger, _), (.double, _):
      return Self.numbersEqual(lhs, rhs)
    default:
      return false
    }
  }

  /// Compares two numbers of possibly different cases by exact numeric value.
  private static func numbersEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.integer(let a), .unsignedInteger(let b)), (.unsignedInteger(let b), .integer(let a)):
      return UInt64(exactly: a) == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)):
      return a == b
    case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)):
      return Int64(exactly: b) == a
    case (.unsignedInteger(let a), .double(let b)), (.double(let b), .unsignedInteger(let a)):
      return UInt64(exactly: b) == a
    default:
      return false
    }
  }

  /// Whether two values are the same JSON *and* the same representation.
  ///
  /// Unlike `==`, numbers must be the same case with the same bits (`1` is not `1.0`, `0.0` is
  /// not `-0.0`), so a diff built on it loses nothing. Object member order is still ignored.
  package func isIdentical(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.null, .null):
      return true
    case (.bool(let a), .bool(let b)):
      return a == b
    case (.integer(let a), .integer(let b)):
      return a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)):
      return a == b
    case (.double(let a), .double(let b)):
      return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    case (.string(let a), .string(let b)):
      return a == b
    case (.array(let a), .array(let b)):
      guard a.count == b.count else { return false }
      for index in a.indices where !a[index].isIdentical(to: b[index]) {
        return false
      }
      return true
    case (.object(let a), .object(let b)):
      return a.isIdentical(to: b)
    default:
      return false
    }
  }
}

extension JSONValue: Hashable {
  /// Hashes the value consistently with JSON equality (member order and number case ignored).
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null:
      hasher.combine(0 as UInt8)
    case .bool(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .integer(let value):
      Self.hashInteger(value, into: &hasher)
    case .unsignedInteger(let value):
      if let small = Int64(exactly: value) {
        Self.hashInteger(small, into: &hasher)
      } else {
        hasher.combine(3 as UInt8)
        hasher.combine(value)
      }
    case .double(let value):
      if let integer = Int64(exactly: value) {
        Self.hashInteger(integer, into: &hasher)
      } else if let unsigned = UInt64(exactly: value) {
        hasher.combine(3 as UInt8)
        hasher.combine(unsigned)
      } else {
        hasher.combine(4 as UInt8)
        hasher.combine(value.isNaN ? Double.nan : value)
      }
    case .string(let value):
      hasher.combine(5 as UInt8)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(6 as UInt8)
      hasher.combine(value)
    case .object(let value):
      hasher.combine(7 as UInt8)
      hasher.combine(value)
    }
  }

  private static func hashInteger(_ value: Int64, into hasher: inout Hasher) {
    hasher.combine(2 as UInt8)
    hasher.combine(value)
  }
}
