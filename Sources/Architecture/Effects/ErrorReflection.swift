import Foundation
import Synchronization

/// How a recorded error's value is written when its type is not `Encodable`, and how a recorded
/// error is rebuilt as the error it was: both by reflection, which the recorder provides.
///
/// Until the recorder installs them, an error without a conformance is recorded without its
/// value, and every recorded failure decodes as a ``RecordedError``.
package enum ErrorReflection {
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

  private static let hooks = Mutex<Hooks?>(nil)

  /// Installs the hooks; the recorder does so once, before it records or replays.
  package static func install(_ newHooks: Hooks) {
    hooks.withLock { $0 = newHooks }
  }

  static func value(of error: any Error) -> RecordedValue? {
    guard let encodable = hooks.withLock({ $0 })?.encodable(error) else { return nil }
    return try? RecordedValue(encoding: encodable)
  }

  /// The error `recorded` was, when its type exists in this process and its value rebuilds;
  /// otherwise `recorded` itself.
  static func rebuilt(_ recorded: RecordedError) -> any Error {
    guard let mangled = recorded.mangledTypeName, let value = recorded.value,
      let rebuild = hooks.withLock({ $0 })?.rebuild,
      let data = try? JSONEncoder().encode(value),
      let error = rebuild(mangled, data)
    else { return recorded }
    return error
  }
}
