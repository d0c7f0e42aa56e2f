extension JSONValue: ExpressibleByNilLiteral {
  /// Makes `null` from the `nil` literal.
  package init(nilLiteral: ()) {
    self = .null
  }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// Makes a boolean from a `true` or `false` literal.
  package init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// Makes an integer from an integer literal.
  package init(integerLiteral value: Int64) {
    self = .integer(value)
  }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// Makes a double from a floating-point literal.
  package init(floatLiteral value: Double) {
    self = .double(value)
  }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// Makes a string from a string literal.
  package init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// Makes an array from an array literal.
  package init(arrayLiteral elements: JSONValue...) {
    self = .array(elements)
  }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Makes an object from a dictionary literal, keeping the literal's key order.
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}
