/// A user info dictionary as `Encoder` and `Decoder` hand it over, converted once from the
/// `Sendable` one the coders are given: converting it on every call allocated a dictionary for
/// each value a recorder encodes and each a replay decodes. Immutable, so it is shared freely.
// unchecked: immutable; each value was Sendable before it was stored as Any
final class ConvertedUserInfo: @unchecked Sendable {
  let value: [CodingUserInfoKey: Any]

  init(_ userInfo: [CodingUserInfoKey: any Sendable]) {
    var converted: [CodingUserInfoKey: Any] = [:]
    for (key, value) in userInfo { converted[key] = value }
    value = converted
  }
}
