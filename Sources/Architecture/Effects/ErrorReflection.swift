import Foundation

/// How a recorded error's value is written when its type is not `Encodable`, and how a recorded
/// error is rebuilt as the error it was: both by reflection, which the recorder provides to the
/// coders it records and replays with, through their `userInfo`.
///
/// Any other coder (a generated test's, an app's) writes an error without a conformance
/// without its value, and decodes every recorded failure as a ``RecordedError``.
package enum ErrorReflection {
  /// The `userInfo` key under which a coder carries its ``Hooks``.
  package static let userInfoKey = CodingUserInfoKey(rawValue: "tca-replay.errorReflection")!

  package struct Hooks: Sendable {
    /// The error's value as something `Encodable`, or `nil`.
    package var encodable: @Sendable (any Error) -> (any Encodable)?
    /// The error of the type with this mangled name, rebuilt from its value's JSON, or `nil`.
    package var rebuild: @Sendable (_ mangledTypeName: String, _ value: Data) -> (any Error)?

    package init(
      encodable: @escaping @Sendable (any Error) -> (any Encodable)?,
      rebuild: @escaping @Sendable (String, Data) -> (any Error)?
    ) {
      self.encodable = encodable
      self.rebuild = rebuild
    }
  }

  static func hooks(in userInfo: [CodingUserInfoKey: Any]) -> Hooks? {
    userInfo[userInfoKey] as? Hooks
  }

  /// The value of `error`, by reflection, when the coder carries hooks.
  static func value(of error: any Error, userInfo: [CodingUserInfoKey: Any]) -> RecordedValue? {
    guard let encodable = hooks(in: userInfo)?.encodable(error) else { return nil }
    return try? RecordedValue(encoding: encodable)
  }

  /// The error `recorded` was, when the coder carries hooks, its type exists in this process
  /// and its value rebuilds; otherwise `recorded` itself.
  static func rebuilt(_ recorded: RecordedError, userInfo: [CodingUserInfoKey: Any]) -> any Error {
    guard let mangled = recorded.mangledTypeName, let value = recorded.value,
      let rebuild = hooks(in: userInfo)?.rebuild,
      let data = try? JSONEncoder().encode(value),
      let error = rebuild(mangled, data)
    else { return recorded }
    return error
  }
}
