import Architecture
import Foundation
import TraceJSON

/// Gives `Architecture` the reflection it needs to record an error's value when its type is not
/// `Encodable`, and to rebuild a recorded error as the error it was: a replayed
/// `.failure(BankError.unknownRecipient)` is that error again, so a reducer that branches on
/// `error as? BankError` or shows its description does what it did.
///
/// Installed once, the first time a recorder or a replay starts.
func installErrorReflection() {
  _ = errorReflectionInstalled
}

private let errorReflectionInstalled: Void = {
  ErrorReflection.install(
    .init(
      encodable: { error in reflectedEncodable(error) },
      rebuild: { mangledTypeName, data in
        guard let type = _typeByName(mangledTypeName),
          let json = try? JSONValue(parsing: data),
          let value = try? ReflectionDecoding.build(type, from: json, at: [])
        else { return nil }
        return value as? any Error
      }
    )
  )
}()
