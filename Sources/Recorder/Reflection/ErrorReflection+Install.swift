import Architecture
import Foundation
import TraceJSON

extension JSONValueEncoder {
  /// The encoder a recorder writes states and actions with: an error without an `Encodable`
  /// conformance is written with its value, by reflection.
  static let recording: JSONValueEncoder = JSONValueEncoder(
    userInfo: [ErrorReflection.userInfoKey: errorReflection])
}

extension JSONValueDecoder {
  /// The decoder a replay reads states and actions with: a `TaskResult` failure is rebuilt as
  /// the error it was, so a reducer that branches on `error as? BankError` or shows its
  /// description does what it did.
  static let replaying: JSONValueDecoder = JSONValueDecoder(
    userInfo: [ErrorReflection.userInfoKey: errorReflection])

  /// A decoder with the hooks `userInfo` carries, if any.
  static func carrying(_ userInfo: [CodingUserInfoKey: Any]) -> JSONValueDecoder {
    userInfo[ErrorReflection.userInfoKey] == nil ? JSONValueDecoder() : .replaying
  }
}

private let errorReflection: ErrorReflection.Hooks = ErrorReflection.Hooks(
  encodable: { error in reflectedEncodable(error) },
  rebuild: { mangledTypeName, data in
    guard let type = _typeByName(mangledTypeName),
      let json = try? JSONValue(parsing: data),
      let value = try? ReflectionDecoding.build(type, from: json, at: [], decoder: .replaying)
    else { return nil }
    return value as? any Error
  }
)
