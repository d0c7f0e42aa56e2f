/// A coding key made at run time: array positions in coding paths, `super`, and arbitrary
/// object keys when decoding `JSONValue` itself.
struct JSONCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
  }

  /// The key that `superEncoder()` and `superDecoder()` use.
  static let `super` = JSONCodingKey(stringValue: "super")
}
