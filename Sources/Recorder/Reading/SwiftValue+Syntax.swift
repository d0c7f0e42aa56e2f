import TraceJSON

/// What Swift source accepts, for the compilable form of a ``SwiftValue``: literals that nothing
/// in a recorded text can end, member and type names checked before they are pasted.
extension SwiftValue {
  /// `text` as a Swift string literal: quotes, backslashes and every control character escaped,
  /// so that nothing in it can end the literal, the line or start an interpolation.
  static func stringLiteral(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.properties.generalCategory == .control
        || scalar == "\u{2028}" || scalar == "\u{2029}" || isBidiControl(scalar):
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// A raw string literal, with enough `#` that the text cannot end it.
  static func rawString(_ text: String) -> String {
    let hashes = hashes(for: text)
    return hashes + "\"" + text + "\"" + hashes
  }

  /// The `#`s a raw string of `text` needs.
  static func hashes(for text: String) -> String {
    // One more than the longest run of `#` after a quote or a backslash, found in one pass: a
    // search per length was quadratic in a text of `"###…`.
    var longest = 0
    var run: Int?
    for byte in text.utf8 {
      if byte == UInt8(ascii: "#"), let current = run {
        run = current + 1
        longest = max(longest, current + 1)
      } else {
        run = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? 0 : nil
      }
    }
    return String(repeating: "#", count: longest + 1)
  }

  /// Whether `scalar` can make a line read other than the compiler reads it ("Trojan Source",
  /// CVE-2021-42574): the bidirectional marks, embeddings, overrides and isolates.
  static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// JSON text with its bidirectional controls written as `\u202E` escapes, which decode to the
  /// same value: JSON holds them only inside strings, and a raw string literal shows the escape.
  static func escapingBidiControls(inJSON text: String) -> String {
    guard text.unicodeScalars.contains(where: isBidiControl) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if isBidiControl(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A number as Swift writes it: whole values without a fraction.
  static func number(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return JSONValue.double(value).jsonString
  }

  private static let keywords: Set<String> = [
    "default", "self", "Self", "init", "class", "struct", "enum", "func", "var", "let", "in",
    "is", "as", "if", "else", "for", "while", "switch", "case", "return", "true", "false", "nil",
    "import", "protocol", "extension", "static", "where", "do", "try", "throw", "repeat",
  ]

  /// A member name, back-quoted when it is a keyword.
  static func escapedMember(_ name: String) -> String {
    keywords.contains(name) && name != "self" && name != "init" ? "`\(name)`" : name
  }

  /// Whether `name` is a type name as `String(reflecting:)` writes one, and nothing else:
  /// identifiers joined by dots, each optionally with generic arguments that are type names
  /// themselves, separated by `, ` (`Architecture.IdentifiedArray<Foundation.UUID, Todos.Todo>`,
  /// `Architecture.StackState<App.Path.State>.Entry`). A name from a trace is pasted into the
  /// generated source, so anything more (spaces, quotes, parentheses, keywords) is refused.
  static func isTypeName(_ name: String) -> Bool {
    var parser = TypeNameParser(Array(name.unicodeScalars))
    return parser.parseType() && parser.isAtEnd
  }

  /// Whether `name` is an identifier and not a keyword: a module in an `import` line, or a type
  /// name without dots.
  package static func isPlainIdentifier(_ name: String) -> Bool {
    TypeName.isIdentifier(name) && !reservedTypeWords.contains(name)
  }

  /// Words that cannot be a component of a type name without backticks.
  static let reservedTypeWords: Set<String> = [
    "Any", "Protocol", "Self", "Type", "_", "as", "associatedtype", "break", "case", "catch",
    "class", "continue", "default", "defer", "deinit", "do", "else", "enum", "extension",
    "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import", "in", "init",
    "inout", "internal", "is", "let", "nil", "open", "operator", "private", "protocol", "public",
    "repeat", "rethrows", "return", "self", "static", "struct", "subscript", "super", "switch",
    "throw", "throws", "true", "try", "typealias", "var", "where", "while",
  ]

  /// A recursive-descent reader of the type-name grammar ``isTypeName(_:)`` accepts.
  private struct TypeNameParser {
    let scalars: [Unicode.Scalar]
    var position = 0
    /// Generic arguments nest; a hostile name must not recurse without end.
    var depth = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var isAtEnd: Bool { position == scalars.count }

    /// type ::= component ( "." component )*
    mutating func parseType() -> Bool {
      depth += 1
      defer { depth -= 1 }
      guard depth <= 32, parseComponent() else { return false }
      while take(".") {
        guard parseComponent() else { return false }
      }
      return true
    }

    /// component ::= identifier ( "<" type ( ", " type )* ">" )?
    mutating func parseComponent() -> Bool {
      let start = position
      while position < scalars.count, Self.isIdentifierScalar(scalars[position]) {
        position += 1
      }
      var word = String.UnicodeScalarView()
      word.append(contentsOf: scalars[start..<position])
      let identifier = String(word)
      guard TypeName.isIdentifier(identifier),
        !SwiftValue.reservedTypeWords.contains(identifier)
      else { return false }
      guard take("<") else { return true }
      repeat {
        guard parseType() else { return false }
      } while take(",") && take(" ")
      return take(">")
    }

    mutating func take(_ scalar: Unicode.Scalar) -> Bool {
      guard position < scalars.count, scalars[position] == scalar else { return false }
      position += 1
      return true
    }

    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }
  }
}
