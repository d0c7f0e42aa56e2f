extension JSONValue: Codable {
  /// Decodes any JSON value.
  ///
  /// With `JSONValueDecoder` this is a copy; with other decoders the value is probed as null,
  /// boolean, integer, double, string, object and array in turn.
  public init(from decoder: any Decoder) throws {
    if let node = decoder as? JSONDecodingNode {
      self = node.value
      return
    }
    if let single = try? decoder.singleValueContainer() {
      if single.decodeNil() {
        self = .null
        return
      }
      if let flag = try? single.decode(Bool.self) {
        self = .bool(flag)
        return
      }
      if let integer = try? single.decode(Int64.self) {
        self = .integer(integer)
        return
      }
      if let unsigned = try? single.decode(UInt64.self) {
        self = .number(unsigned)
        return
      }
      if let double = try? single.decode(Double.self) {
        self = .double(double)
        return
      }
      if let string = try? single.decode(String.self) {
        self = .string(string)
        return
      }
    }
    if let keyed = try? decoder.container(keyedBy: JSONCodingKey.self) {
      var object = JSONObject()
      for key in keyed.allKeys {
        object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
      }
      self = .object(object)
      return
    }
    if var unkeyed = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      while !unkeyed.isAtEnd {
        elements.append(try unkeyed.decode(JSONValue.self))
      }
      self = .array(elements)
      return
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath, debugDescription: "The value is not a JSON value."))
  }

  /// Encodes the value as itself: objects keep their member order.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let flag):
      var single = encoder.singleValueContainer()
      try single.encode(flag)
    case .integer(let integer):
      var single = encoder.singleValueContainer()
      try single.encode(integer)
    case .unsignedInteger(let unsigned):
      var single = encoder.singleValueContainer()
      try single.encode(unsigned)
    case .double(let double):
      var single = encoder.singleValueContainer()
      try single.encode(double)
    case .string(let string):
      var single = encoder.singleValueContainer()
      try single.encode(string)
    case .array(let elements):
      var unkeyed = encoder.unkeyedContainer()
      for element in elements {
        try unkeyed.encode(element)
      }
    case .object(let object):
      var keyed = encoder.container(keyedBy: JSONCodingKey.self)
      for (key, value) in object {
        try keyed.encode(value, forKey: JSONCodingKey(stringValue: key))
      }
    }
  }
}
