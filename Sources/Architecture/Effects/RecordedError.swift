/// An error decoded from a recording: the recorded type name, description, localized texts and,
/// when the original error was `Encodable`, its encoded value.
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
///
/// It answers `localizedDescription` and the ``LocalizedError`` texts as the original did when it
/// was recorded, so a reducer that shows `error.localizedDescription` shows the recorded text.
public struct RecordedError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The recorded error's type, as its dump names it: `NumberFactClient.Failure`.
  public var typeName: String
  /// The recorded error's `String(describing:)`.
  public var description: String
  /// The recorded error's encoded value, when its type was `Encodable`.
  var value: RecordedValue?
  /// The recorded error's `localizedDescription`; `nil` in traces recorded before it was.
  public var recordedLocalizedDescription: String?
  /// The recorded error's `LocalizedError.errorDescription`.
  public var recordedErrorDescription: String?
  /// The recorded error's `LocalizedError.failureReason`.
  public var recordedFailureReason: String?
  /// The recorded error's `LocalizedError.recoverySuggestion`.
  public var recordedRecoverySuggestion: String?
  /// The recorded error's `LocalizedError.helpAnchor`.
  public var recordedHelpAnchor: String?
  /// The recorded error's type as `_mangledTypeName` names it, which `_typeByName` can look up
  /// in the process that has the type; `nil` when the runtime gave none.
  public var mangledTypeName: String?
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
    recordedLocalizedDescription = error.localizedDescription
    if let localized = error as? any LocalizedError {
      recordedErrorDescription = localized.errorDescription
      recordedFailureReason = localized.failureReason
      recordedRecoverySuggestion = localized.recoverySuggestion
      recordedHelpAnchor = localized.helpAnchor
    }
    mangledTypeName = _mangledTypeName(type(of: error))
    if value == nil { original = error }
  }

  /// A recorded error with the given type name, description and localized texts, and no
  /// encoded value, as generated tests write one.
  public init(
    typeName: String,
    description: String,
    localizedDescription: String? = nil,
    errorDescription: String? = nil,
    failureReason: String? = nil,
    recoverySuggestion: String? = nil,
    helpAnchor: String? = nil
  ) {
    self.typeName = typeName
    self.description = description
    recordedLocalizedDescription = localizedDescription
    recordedErrorDescription = errorDescription
    recordedFailureReason = failureReason
    recordedRecoverySuggestion = recoverySuggestion
    recordedHelpAnchor = helpAnchor
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

extension RecordedError: LocalizedError {
  /// The recorded `errorDescription`, else the recorded `localizedDescription`, which Foundation
  /// then answers as this error's `localizedDescription`.
  public var errorDescription: String? {
    recordedErrorDescription ?? recordedLocalizedDescription
  }

  /// The recorded `failureReason`.
  public var failureReason: String? { recordedFailureReason }

  /// The recorded `recoverySuggestion`.
  public var recoverySuggestion: String? { recordedRecoverySuggestion }

  /// The recorded `helpAnchor`.
  public var helpAnchor: String? { recordedHelpAnchor }
}

extension RecordedError: Codable {
  enum CodingKeys: String, CodingKey {
    case type, description, value, localizedDescription, errorDescription, failureReason,
      recoverySuggestion, helpAnchor, mangledType
  }

  /// Decodes `{"type": …, "description": …, "localizedDescription": …, …}`; all but the type
  /// and the description are optional, and absent from traces recorded before them.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    typeName = try container.decode(String.self, forKey: .type)
    description = try container.decode(String.self, forKey: .description)
    value = try container.decodeIfPresent(RecordedValue.self, forKey: .value)
    recordedLocalizedDescription = try container.decodeIfPresent(
      String.self, forKey: .localizedDescription)
    recordedErrorDescription = try container.decodeIfPresent(String.self, forKey: .errorDescription)
    recordedFailureReason = try container.decodeIfPresent(String.self, forKey: .failureReason)
    recordedRecoverySuggestion = try container.decodeIfPresent(
      String.self, forKey: .recoverySuggestion)
    recordedHelpAnchor = try container.decodeIfPresent(String.self, forKey: .helpAnchor)
    mangledTypeName = try container.decodeIfPresent(String.self, forKey: .mangledType)
  }

  /// Encodes `{"type": …, "description": …, "localizedDescription": …, …}`, each optional
  /// member only when there is one.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(typeName, forKey: .type)
    try container.encode(description, forKey: .description)
    let reflected = original.flatMap { ErrorReflection.value(of: $0, userInfo: encoder.userInfo) }
    try container.encodeIfPresent(value ?? reflected, forKey: .value)
    try container.encodeIfPresent(recordedLocalizedDescription, forKey: .localizedDescription)
    try container.encodeIfPresent(recordedErrorDescription, forKey: .errorDescription)
    try container.encodeIfPresent(recordedFailureReason, forKey: .failureReason)
    try container.encodeIfPresent(recordedRecoverySuggestion, forKey: .recoverySuggestion)
    try container.encodeIfPresent(recordedHelpAnchor, forKey: .helpAnchor)
    try container.encodeIfPresent(mangledTypeName, forKey: .mangledType)
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
