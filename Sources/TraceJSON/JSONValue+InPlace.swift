extension JSONValue {
  /// Runs `body` on the array this value holds, changing it in place; `nil` if this is not an
  /// array.
  ///
  /// The array is taken out of the enum while `body` runs, so that it is uniquely referenced
  /// and changing one element does not copy the others. This needs `if case`: a `switch` over
  /// the value keeps a second reference to the payload for the whole switch, and then every
  /// change copies the entire array.
  @inlinable
  package mutating func modifyArray<R, E: Error>(
    _ body: (inout [JSONValue]) throws(E) -> R
  ) throws(E) -> R? {
    guard case .array(var elements) = self else { return nil }
    self = .null
    defer { self = .array(elements) }
    return try body(&elements)
  }

  /// Runs `body` on the object this value holds, changing it in place; `nil` if this is not an
  /// object. See ``modifyArray(_:)`` for why.
  @inlinable
  package mutating func modifyObject<R, E: Error>(
    _ body: (inout JSONObject) throws(E) -> R
  ) throws(E) -> R? {
    guard case .object(var object) = self else { return nil }
    self = .null
    defer { self = .object(object) }
    return try body(&object)
  }
}
