extension JSONValue {
  /// How deeply arrays and objects may nest in parsed text unless a parse says otherwise: 512.
  public static let defaultMaximumDepth = 512

  /// Parses a complete JSON text from UTF-8 bytes (strict RFC 8259).
  ///
  /// - Parameters:
  ///   - bytes: The UTF-8 text; whitespace may surround the single value.
  ///   - maximumDepth: How deeply arrays and objects may nest before parsing fails.
  ///   - maximumValueCount: How many values (every scalar, array element and object member,
  ///     nested ones included) the text may hold before parsing fails; no limit by default.
  /// - Throws: `JSONParseError` with the byte offset of the first problem.
  public init(
    parsing bytes: UnsafeRawBufferPointer,
    maximumDepth: Int = JSONValue.defaultMaximumDepth,
    maximumValueCount: Int = .max
  ) throws(JSONParseError) {
    let typed = bytes.assumingMemoryBound(to: UInt8.self)
    var parser = JSONParser(
      bytes: typed, maximumDepth: maximumDepth, maximumValueCount: maximumValueCount)
    self = try parser.parseDocument()
  }

  /// Parses a complete JSON text from a collection of UTF-8 bytes, such as `[UInt8]` or `Data`.
  ///
  /// - Throws: `JSONParseError` with the byte offset of the first problem.
  public init(
    parsing bytes: some Collection<UInt8>,
    maximumDepth: Int = JSONValue.defaultMaximumDepth
  ) throws(JSONParseError) {
    let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
      Self.parseResult(buffer, maximumDepth: maximumDepth)
    }
    let result = contiguous ?? Array(bytes).withUnsafeBufferPointer { buffer in
      Self.parseResult(buffer, maximumDepth: maximumDepth)
    }
    self = try result.get()
  }

  /// Parses a complete JSON text.
  ///
  /// - Throws: `JSONParseError` with the byte offset (into the UTF-8 form) of the first problem.
  public init(
    parsing text: String,
    maximumDepth: Int = JSONValue.defaultMaximumDepth
  ) throws(JSONParseError) {
    var text = text
    let result = text.withUTF8 { buffer in
      Self.parseResult(buffer, maximumDepth: maximumDepth)
    }
    self = try result.get()
  }

  private static func parseResult(
    _ buffer: UnsafeBufferPointer<UInt8>,
    maximumDepth: Int
  ) -> Result<JSONValue, JSONParseError> {
    var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
    do {
      return .success(try parser.parseDocument())
    } catch {
      return .failure(error)
    }
  }
}
