/// Encodes `Encodable` values to `JSONValue`, deterministically and fast.
///
/// The output is what the recorder writes for every step, so the rules are fixed:
/// - Object members appear in the order they were encoded: for synthesized conformances, the
///   declaration order of the coding keys. `Dictionary` and `Set` contents are sorted (keys by
///   UTF-8 bytes, other elements by their encoded text) because their own order varies between
///   runs.
/// - `Double` and `Float` round-trip exactly; non-finite values become the strings `"NaN"`,
///   `"Infinity"` and `"-Infinity"`.
/// - `Date` is its `timeIntervalSinceReferenceDate` (Foundation's default), `UUID` its
///   uppercase string, `URL` its absolute string and `Data` base64 text.
/// - `nil` optionals are left out of keyed containers (`encodeIfPresent`); `encodeNil` writes
///   `null`.
/// - Every integer type keeps its exact value.
///
/// ```swift
/// let value = try JSONValueEncoder().encode(state)
/// value.serialize(into: &line)
/// ```
public struct JSONValueEncoder: Sendable {
  /// Context handed to the `encode(to:)` implementations through `Encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    didSet { converted = ConvertedUserInfo(userInfo) }
  }

  /// The user info as `Encoder` hands it over, converted once.
  private var converted: ConvertedUserInfo

  /// Makes an encoder with the given user info.
  public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
    self.converted = ConvertedUserInfo(userInfo)
  }

  /// Encodes `value` as a `JSONValue`.
  ///
  /// - Throws: `EncodingError.invalidValue` if `value` encodes nothing at all, or whatever its
  ///   `encode(to:)` throws.
  public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
    if let scalar = JSONEncodingNode.scalar(value) { return scalar }
    let root = JSONEncodingNode(parent: nil, component: nil, userInfo: anyUserInfo)
    try value.encode(to: root)
    guard var result = root.finish() else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
    }
    if root.mayBeUnordered, let unordered = T.self as? any JSONUnorderedCollection.Type {
      Self.sortUnordered(&result, isDictionary: unordered.isJSONDictionary)
    }
    return result
  }

  /// Encodes `value` exactly as it is encoded as a member or element of a larger value found
  /// at `codingPath`: a value that writes nothing is `{}` there, not an error.
  package func encode<T: Encodable>(
    _ value: T, asPartAt codingPath: [any CodingKey]
  ) throws -> JSONValue {
    if let scalar = JSONEncodingNode.scalar(value) { return scalar }
    let root = JSONEncodingNode(parent: nil, component: nil, userInfo: anyUserInfo)
    root.basePath = codingPath
    try value.encode(to: root)
    var result = root.finish() ?? .object(JSONObject())
    if root.mayBeUnordered, let unordered = T.self as? any JSONUnorderedCollection.Type {
      Self.sortUnordered(&result, isDictionary: unordered.isJSONDictionary)
    }
    return result
  }

  private var anyUserInfo: [CodingUserInfoKey: Any] { converted.value }

  /// Puts the encoded form of a `Dictionary` or `Set` in a canonical order.
  static func sortUnordered(_ value: inout JSONValue, isDictionary: Bool) {
    if value.modifyObject({ $0.sortKeys() }) != nil { return }
    switch value {
    case .array(let elements) where isDictionary:
      // Keys that are not strings or integers encode as [key, value, key, value, ...].
      guard elements.count.isMultiple(of: 2) else { return }
      let pairs = stride(from: 0, to: elements.count, by: 2).map {
        (key: elements[$0].jsonBytes, first: elements[$0], second: elements[$0 + 1])
      }
      let sorted = pairs.sorted { $0.key.lexicographicallyPrecedes($1.key) }
      value = .array(sorted.flatMap { [$0.first, $0.second] })
    case .array(let elements):
      let keyed = elements.map { (key: $0.jsonBytes, element: $0) }
      value = .array(keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.element))
    default:
      break
    }
  }
}
