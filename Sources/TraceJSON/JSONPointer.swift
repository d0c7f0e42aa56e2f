/// A JSON Pointer (RFC 6901): a path to one value inside a JSON document.
///
/// The text form is empty for the whole document, or a sequence of `/`-prefixed tokens in
/// which `~` is written `~0` and `/` is written `~1`:
///
/// ```swift
/// let pointer = JSONPointer("/todos/2/title")!
/// pointer.tokens        // ["todos", "2", "title"]
/// pointer.appending("a/b").description  // "/todos/2/title/a~1b"
/// ```
///
/// A token addresses an object member by name or an array element by its decimal index
/// (`0`, or digits without a leading zero). The token `-` names the position after the last
/// element of an array, which only the patch `add` operation can use.
public struct JSONPointer: Hashable, Sendable {
  /// The unescaped reference tokens, outermost first; empty for the whole document.
  public var tokens: [String]

  /// Makes a pointer from unescaped tokens.
  public init(tokens: [String] = []) {
    self.tokens = tokens
  }

  /// Parses the RFC 6901 text form; `nil` unless it is empty or starts with `/` and every `~`
  /// is followed by `0` or `1`.
  public init?(_ text: String) {
    if text.isEmpty {
      tokens = []
      return
    }
    guard text.utf8.first == UInt8(ascii: "/") else { return nil }
    var tokens: [String] = []
    for rawToken in text.utf8.dropFirst().split(
      separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    {
      guard let token = Self.unescape(rawToken) else { return nil }
      tokens.append(token)
    }
    self.tokens = tokens
  }

  /// The pointer to the whole document.
  public static let root = JSONPointer()

  /// Whether this is the pointer to the whole document.
  public var isRoot: Bool { tokens.isEmpty }

  /// The last reference token, or `nil` for the root.
  public var lastToken: String? { tokens.last }

  /// The pointer to the value containing this one, or `nil` for the root.
  public var parent: JSONPointer? {
    tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
  }

  /// This pointer with one more token (an object key, or an array index as text).
  public func appending(_ token: String) -> JSONPointer {
    // One array, sized once: `tokens + [token]` built a second one for the token.
    var longer: [String] = []
    longer.reserveCapacity(tokens.count + 1)
    longer.append(contentsOf: tokens)
    longer.append(token)
    return JSONPointer(tokens: longer)
  }

  /// This pointer with an array index appended.
  public func appending(index: Int) -> JSONPointer {
    appending(String(index))
  }

  /// Whether this pointer is a strict ancestor of `other` (a prefix with fewer tokens).
  public func isProperPrefix(of other: JSONPointer) -> Bool {
    tokens.count < other.tokens.count && other.tokens.starts(with: tokens)
  }

  /// The value this pointer refers to in `document`, or `nil` if there is none.
  public func resolve(in document: JSONValue) -> JSONValue? {
    var current = document
    for token in tokens {
      switch current {
      case .object(let object):
        guard let member = object[token] else { return nil }
        current = member
      case .array(let elements):
        guard let index = Self.arrayIndex(token), index < elements.count else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// The array index a token denotes: `0` or digits without a leading zero, within `Int`.
  ///
  /// `nil` for anything else, including `-`, `01`, `+1` and `1.0`.
  public static func arrayIndex(_ token: String) -> Int? {
    let utf8 = token.utf8
    guard let first = utf8.first, !utf8.isEmpty else { return nil }
    if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
    var value = 0
    for byte in utf8 {
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      if overflow1 || overflow2 { return nil }
      value = sum
    }
    return value
  }

  /// Writes a token in pointer form: `~` as `~0`, `/` as `~1`.
  public static func escape(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") })
    else { return token }
    var escaped = ""
    escaped.reserveCapacity(token.utf8.count + 2)
    for character in token.unicodeScalars {
      switch character {
      case "~": escaped += "~0"
      case "/": escaped += "~1"
      default: escaped.unicodeScalars.append(character)
      }
    }
    return escaped
  }

  /// Decodes one token: `~0` to `~` and `~1` to `/`, in a single left-to-right pass, so `~01`
  /// is `~1`. `nil` if a `~` is followed by anything else.
  private static func unescape(_ raw: Substring.UTF8View.SubSequence) -> String? {
    guard raw.contains(UInt8(ascii: "~")) else { return String(Substring(raw)) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(raw.count)
    var iterator = raw.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "~") else {
        bytes.append(byte)
        continue
      }
      switch iterator.next() {
      case UInt8(ascii: "0"): bytes.append(UInt8(ascii: "~"))
      case UInt8(ascii: "1"): bytes.append(UInt8(ascii: "/"))
      default: return nil
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension JSONPointer: CustomStringConvertible {
  /// The RFC 6901 text form: `""` for the root, otherwise `/`-prefixed escaped tokens.
  public var description: String {
    var text = ""
    for token in tokens {
      text += "/"
      text += Self.escape(token)
    }
    return text
  }
}

extension JSONPointer: Codable {
  /// Decodes a pointer from its text form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let pointer = JSONPointer(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "Invalid JSON pointer \(JSONValue.string(text)).")
    }
    self = pointer
  }

  /// Encodes the pointer as its text form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
