/// Decodes `Decodable` values from `JSONValue`, accepting exactly what `JSONValueEncoder`
/// writes.
///
/// Numbers convert between cases when the value fits exactly (an integer type accepts `3` and
/// `3.0`, not `3.5`); floating-point types also accept `"NaN"`, `"Infinity"` and
/// `"-Infinity"`. `Date` reads a `timeIntervalSinceReferenceDate`, `UUID` its text (either
/// case), `URL` a string and `Data` base64 text. Errors are `DecodingError`s carrying the full
/// coding path, which their description also spells out: `Expected a string but found number
/// at todos[3].title.`
public struct JSONValueDecoder: Sendable {
  /// Context handed to the `init(from:)` implementations through `Decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    didSet { converted = ConvertedUserInfo(userInfo) }
  }

  /// The user info as `Decoder` hands it over, converted once.
  private var converted: ConvertedUserInfo

  /// Makes a decoder with the given user info.
  public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
    self.converted = ConvertedUserInfo(userInfo)
  }

  /// Decodes a `T` from `value`.
  ///
  /// - Throws: `DecodingError` describing the first value that does not fit, with its path.
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    let root = JSONDecodingNode(
      value: value, parent: nil, component: nil, userInfo: converted.value)
    if let scalar = try root.scalar(value, as: type, at: nil) { return scalar }
    return try T(from: root)
  }
}
