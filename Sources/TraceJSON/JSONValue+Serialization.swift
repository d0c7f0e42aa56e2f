extension JSONValue {
  /// Appends the compact UTF-8 JSON text of this value to `buffer`.
  ///
  /// The output is deterministic: the same value always produces the same bytes.
  public func serialize(into buffer: inout [UInt8]) {
    JSONTextWriter.writeCompact(self, to: &buffer)
  }

  /// The compact UTF-8 JSON text of this value.
  public var jsonBytes: [UInt8] {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(64)
    serialize(into: &buffer)
    return buffer
  }

  /// The compact JSON text of this value.
  public var jsonString: String {
    String(decoding: jsonBytes, as: UTF8.self)
  }

  /// Appends an indented, human-readable form of this value to `buffer`.
  ///
  /// Nested values are indented by two spaces a level and object members keep their stored
  /// order. No newline is written after the value.
  public func prettyPrint(into buffer: inout [UInt8]) {
    JSONTextWriter.writePretty(self, level: 0, to: &buffer)
  }

  /// An indented, human-readable JSON text of this value.
  public var prettyPrinted: String {
    var buffer: [UInt8] = []
    prettyPrint(into: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }
}

extension JSONValue: CustomStringConvertible {
  /// The compact JSON text of this value.
  public var description: String { jsonString }
}
