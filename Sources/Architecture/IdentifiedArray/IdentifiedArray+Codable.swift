extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as a plain array, as `[Element]` encodes: ids are not written apart.
  ///
  /// ```swift
  /// try JSONEncoder().encode(todos)  // [{"id":1,"title":"Milk"},{"id":2,"title":"Eggs"}]
  /// ```
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self {
      try container.encode(element)
    }
  }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, ID == Element.ID {
  /// Decodes a plain array of elements, failing on a duplicate id.
  ///
  /// - Throws: `DecodingError.dataCorrupted` naming the offset of the first duplicate, or any
  ///   error decoding an element throws.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    if let count = container.count { self.reserveCapacity(count) }
    while !container.isAtEnd {
      let offset = container.currentIndex
      let element = try container.decode(Element.self)
      guard self.append(element).inserted else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: container.codingPath,
            debugDescription: """
              Duplicate element at offset \(offset): id \(String(reflecting: element.id)) \
              already appears earlier in the array.
              """
          )
        )
      }
    }
  }
}
