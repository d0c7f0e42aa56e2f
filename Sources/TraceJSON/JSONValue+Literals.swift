extension JSONValue: ExpressibleByNilLiteral {
  /// Makes `null` from the `nil` literal.
  public init(nilLiteral: ()) {
    self = .null
  }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// Makes a boolean from a `true` or `false` literal.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// Makes an integer from an integer literal.
  public init(integerLiteral value: Int64) {
    self = .integer(value)
  }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// Makes a double from a floating-point literal.
  public init(floatLiteral value: Double) {
    self = .double(value)
  }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// Makes a string from a string literal.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// Makes an array from an array literal.
  public init(arrayLiteral elements: JSONValue...) {
    self = .array(elements)
  }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Makes an object from a dictionary literal, keeping the literal's key order.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}
