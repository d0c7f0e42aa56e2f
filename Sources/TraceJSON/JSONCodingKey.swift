/// A coding key made at run time: array positions in coding paths, `super`, and arbitrary
/// object keys when decoding `JSONValue` itself.
package struct JSONCodingKey: CodingKey {
  package var stringValue: String
  package var intValue: Int?

  package init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  package init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
  }

  /// The key that `superEncoder()` and `superDecoder()` use.
  package static let `super` = JSONCodingKey(stringValue: "super")
}
