/// Why a JSON text could not be parsed, and the byte offset where the problem was found.
///
/// The description is one line meant for people: `expected ',' or '}' at byte 17`.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The zero-based offset, in bytes from the start of the input, of the problem.
  public var offset: Int
  /// What was wrong, without the position: `expected ',' or '}'`.
  public var reason: String

  /// Makes an error for `reason` found at byte `offset`.
  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// The reason followed by the offset: `expected ',' or '}' at byte 17`.
  public var description: String { "\(reason) at byte \(offset)" }
}
