/// An error decoded from a recording: the recorded type name, description and, when the original
/// error was `Encodable`, its encoded value.
///
/// Error types cannot be looked up by name at run time, so a ``TaskResult`` failure decodes into
/// this type. It compares equal (inside a ``TaskResult``) to an error of the recorded type with
/// the same description, so a replayed `.factResponse(.failure(…))` equals the live one, and it
/// encodes exactly as the original did.
///
/// ```swift
/// let decoded = try JSONDecoder().decode(TaskResult<String>.self, from: data)
/// decoded == .failure(NumberFactClient.Failure())  // true
/// ```
public struct RecordedError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The recorded error's type, as its dump names it: `NumberFactClient.Failure`.
  public var typeName: String
  /// The recorded error's `String(describing:)`.
  public var description: String
  /// The recorded error's encoded value: by its `Encodable` conformance, or by reflection.
  var value: RecordedValue?
  /// The mangled name of the recorded error's type, which a replay looks the type up by.
  package var mangledTypeName: String?
  /// The error recorded, until it is encoded: a recorder's encoder writes its value by
  /// reflection when its type is not `Encodable`.
  private var original: (any Error)?

  /// Records `error`'s type name, description and, when it is `Encodable`, its encoded value.
  public init(_ error: any Error) {
    if let recorded = error as? RecordedError {
      self = recorded
      return
    }
    typeName = errorTypeName(error)
    description = String(describing: error)
    value = encodedValue(error)
    mangledTypeName = _mangledTypeName(type(of: error))
    if value == nil { original = error }
  }

  /// A recorded error with the given type name and description, and no encoded value.
  public init(typeName: String, description: String) {
    self.typeName = typeName
    self.description = description
  }

  /// Whether `error` is what was recorded: an error of the recorded type with the same
  /// description.
  public func matches(_ error: any Error) -> Bool {
    errorTypeName(error) == typeName && String(describing: error) == description
  }

  /// Compares type names and descriptions: the encoded value adds nothing a reader relies on.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.typeName == rhs.typeName && lhs.description == rhs.description
  }

  /// Hashes the type name and the description.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(typeName)
    hasher.combine(description)
  }
}

extension RecordedError: Codable {
  enum CodingKeys: String, CodingKey {
    case type, description, value
    case mangledTypeName = "mangledType"
  }

  /// Decodes `{"type": …, "description": …, "value": …}`; `value` is optional.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    typeName = try container.decode(String.self, forKey: .type)
    description = try container.decode(String.self, forKey: .description)
    value = try container.decodeIfPresent(RecordedValue.self, forKey: .value)
    mangledTypeName = try container.decodeIfPresent(String.self, forKey: .mangledTypeName)
  }

  /// Encodes `{"type": …, "description": …, "value": …}`, the value only when there is one.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(typeName, forKey: .type)
    try container.encode(description, forKey: .description)
    let reflected = original.flatMap { ErrorReflection.value(of: $0, userInfo: encoder.userInfo) }
    try container.encodeIfPresent(value ?? reflected, forKey: .value)
    try container.encodeIfPresent(mangledTypeName, forKey: .mangledTypeName)
  }
}

extension RecordedError: CustomDumpReflectable {
  package var customDumpMirror: Mirror {
    Mirror(self, children: ["typeName": typeName, "description": description])
  }
}

/// The encoded value of `error` when its type is `Encodable`.
///
/// Asks the type rather than casting the value, so that no bridging conversion is encoded.
private func encodedValue<E: Error>(_ error: E) -> RecordedValue? {
  guard E.self is any Encodable.Type, let encodable = error as? any Encodable else { return nil }
  return try? RecordedValue(encoding: encodable)
}
