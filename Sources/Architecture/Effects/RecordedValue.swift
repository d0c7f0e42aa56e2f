import Foundation

/// A coded value of any shape, kept so a ``RecordedError`` re-encodes its error's value as it was.
///
/// Decoding probes the value as null, boolean, integer, floating point, string, object and
/// array in turn, so it works with any decoder.
indirect enum RecordedValue: Sendable, Codable {
  case null
  case bool(Bool)
  case integer(Int64)
  case unsignedInteger(UInt64)
  case double(Double)
  case string(String)
  case array([RecordedValue])
  case object([(key: String, value: RecordedValue)])

  /// The value `value` encodes to, through Foundation's JSON coders.
  ///
  /// The recorder's own encoder may write dates or data differently; an error's value is kept
  /// for inspection, and equality never looks at it.
  init(encoding value: any Encodable) throws {
    let data = try JSONEncoder().encode(value)
    self = try JSONDecoder().decode(RecordedValue.self, from: data)
  }

  init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer() {
      if single.decodeNil() {
        self = .null
        return
      }
      if let value = try? single.decode(Bool.self) {
        self = .bool(value)
        return
      }
      if let value = try? single.decode(Int64.self) {
        self = .integer(value)
        return
      }
      if let value = try? single.decode(UInt64.self) {
        self = .unsignedInteger(value)
        return
      }
      if let value = try? single.decode(Double.self) {
        self = .double(value)
        return
      }
      if let value = try? single.decode(String.self) {
        self = .string(value)
        return
      }
    }
    if let keyed = try? decoder.container(keyedBy: AnyCodingKey.self) {
      self = .object(
        try keyed.allKeys.map { ($0.stringValue, try keyed.decode(RecordedValue.self, forKey: $0)) }
      )
      return
    }
    var unkeyed = try decoder.unkeyedContainer()
    var elements: [RecordedValue] = []
    while !unkeyed.isAtEnd {
      elements.append(try unkeyed.decode(RecordedValue.self))
    }
    self = .array(elements)
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .integer(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .unsignedInteger(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .double(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .string(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .array(let elements):
      var unkeyed = encoder.unkeyedContainer()
      for element in elements { try unkeyed.encode(element) }
    case .object(let members):
      var keyed = encoder.container(keyedBy: AnyCodingKey.self)
      for (key, value) in members { try keyed.encode(value, forKey: AnyCodingKey(key)) }
    }
  }
}

struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}
