import TraceJSON

/// Reading a value back from the text the tool printed: the inverse of ``SwiftValue/text``.
///
/// Every form ``SwiftValue`` and an action label write parses: `3`, `"milk"`, `nil`, `.nan`,
/// `.case`, `.case(label: value, value)`, `Name(label: value)`, `[a, b]`, `Set([a, b])`,
/// `[key: value]`, `[:]`, `[#0: …]`, `\.$draft`, `UUID(7)`, `UUID(3F2504E0…)`, `3F2A…9B1C`,
/// `2026-11-27T15:40:00.250Z`, `URL(…)`, `IndexSet(…)`, a label's `{name: value}`, and JSON.
/// What a printer cut short (`…` alone, `[3 items]`, `… 2 more`) is an error: it is not there.
///
/// ```swift
/// let value = try SwiftValue(reading: #".binding(.set(\.$draft, "X"))"#)
/// value.text  // .binding(.set(\.$draft, "X"))
/// ```
extension SwiftValue {
  /// Why a text is not a value, in one line: what could not be read and at which column.
  package struct ReadError: Error, Equatable, Sendable {
    package var message: String

    package init(_ message: String) {
      self.message = message
    }
  }

  /// Parses `text`, a whole value.
  package init(reading text: String) throws(ReadError) {
    var parser = SwiftValueParser(characters: Array(text))
    let value = try parser.value()
    parser.skipSpaces()
    guard parser.current == nil else {
      throw parser.error("unexpected text after the value")
    }
    self = value
  }
}

/// A recursive-descent reader of printed values; see ``SwiftValue/init(reading:)``.
struct SwiftValueParser {
  let characters: [Character]
  var position = 0
  private var depth = 0

  /// Deeper values than this are refused, not followed: hostile text must not overflow the stack.
  static let maximumDepth = 200

  init(characters: [Character]) {
    self.characters = characters
  }

  var current: Character? { position < characters.count ? characters[position] : nil }

  private func peek(_ offset: Int) -> Character? {
    position + offset < characters.count ? characters[position + offset] : nil
  }

  mutating func skipSpaces() {
    while current?.isWhitespace == true { position += 1 }
  }

  /// An error at the current column, quoting a little of what is there.
  func error(_ why: String) -> SwiftValue.ReadError {
    guard position < characters.count else {
      return .init("cannot read the value: \(why), at the end")
    }
    let shown = Self.shown(characters[position...].prefix(20))
    let more = characters.count - position > 20 ? "…" : ""
    return .init("cannot read '\(shown)\(more)' at column \(position + 1): \(why)")
  }

  /// Text for a one-line message: control characters and line breaks escaped.
  static func shown(_ characters: some Sequence<Character>) -> String {
    var text = ""
    for scalar in String(characters).unicodeScalars {
      if scalar.properties.generalCategory == .control || scalar == "\u{2028}"
        || scalar == "\u{2029}"
      {
        text += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return text
  }

  mutating func value() throws(SwiftValue.ReadError) -> SwiftValue {
    skipSpaces()
    guard let character = current else { throw error("a value is missing") }
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else {
      throw error("values nest deeper than \(Self.maximumDepth)")
    }
    switch character {
    case ".": return try member()
    case "-" where peek(1) == ".":
      position += 1
      let inner = try member()
      guard case .call(".infinity", []) = inner else { throw error("expected -.infinity") }
      return .atom("-.infinity", .number)
    case "\"": return try string()
    case "[": return try bracketed()
    case "{": return try braced()
    case "\\": return keyPath()
    case "#": return try stackID()
    case "…": throw error("the printed value was cut short here: write it in full")
    default:
      if let word = uuidOrDate() { return .atom(word, .symbol) }
      if character.isNumber || character == "-" || character == "+" { return try number() }
      if character.isLetter || character == "_" { return try named() }
      throw error("a value starts with a digit, a quote, '.', '[' or a name")
    }
  }

  /// `.case`, `.case(arguments)`, `.nan`, `.infinity`.
  private mutating func member() throws(SwiftValue.ReadError) -> SwiftValue {
    position += 1  // The dot.
    let name = identifier()
    guard !name.isEmpty else {
      if current == "…" { throw error("the printed value was cut short here: write it in full") }
      throw error("a case name must follow '.'")
    }
    if current == "(" {
      return .call("." + name, try arguments(closing: ")"))
    }
    if name == "nan" || name == "infinity" { return .atom("." + name, .number) }
    return .call("." + name, [])
  }

  /// A name, and what follows it: `true`, `nil`, `UUID(…)`, `Set([…])`, `Name(…)`, `Name`.
  private mutating func named() throws(SwiftValue.ReadError) -> SwiftValue {
    let start = position
    let name = typeName()
    switch name {
    case "true", "false", "nil": return .atom(name, .keyword)
    default: break
    }
    guard current == "(" else { return .atom(name, .symbol) }
    if ["UUID", "URL", "Data", "IndexSet"].contains(name) {
      // Written whole by the printer, read whole: its inside is not Swift syntax.
      guard let close = matchingParenthesis(from: position) else {
        throw error("'(' is not closed")
      }
      position = close + 1
      return .atom(String(characters[start..<position]), .symbol)
    }
    if name == "Set", peek(1) == "[" {
      position += 1
      guard case .list(_, let elements, _) = try bracketed() else {
        throw error("Set takes a list: Set([a, b])")
      }
      skipSpaces()
      guard current == ")" else { throw error("expected ')' after Set([…]") }
      position += 1
      return .list(open: "Set([", elements: elements, close: "])")
    }
    return .call(name, try arguments(closing: ")"))
  }

  /// `(label: value, value)` or, for a label's struct, `{name: value}`; a trailing comma is fine.
  private mutating func arguments(closing: Character) throws(SwiftValue.ReadError)
    -> [SwiftValue.Argument]
  {
    position += 1  // The opening.
    var arguments: [SwiftValue.Argument] = []
    skipSpaces()
    while current != closing {
      guard current != nil else { throw error("'\(closing == ")" ? "(" : "{")' is not closed") }
      if current == "…" { throw error("the printed value was cut short here: write it in full") }
      // A label is a name, or a quoted key, followed by a colon; otherwise the value is unlabelled.
      let mark = position
      var label: String?
      if current == "\"", closing == "}", case .atom(let key, .string) = try string() {
        label = Self.unquoted(key)
      } else {
        let word = identifier()
        if !word.isEmpty { label = word }
      }
      skipSpaces()
      if label != nil, current == ":" {
        position += 1
      } else {
        position = mark
        label = nil
      }
      arguments.append(.init(label: label, value: try value()))
      skipSpaces()
      if current == "," {
        position += 1
        skipSpaces()
      } else if current != closing {
        throw error("expected ',' or '\(closing)'")
      }
    }
    position += 1
    return arguments
  }

  /// A label's struct `{title: "Milk", quantity: 2}`, or a JSON object: a call without a name.
  private mutating func braced() throws(SwiftValue.ReadError) -> SwiftValue {
    .call("", try arguments(closing: "}"))
  }

  /// `[a, b]`, `[key: value]`, `[:]`.
  private mutating func bracketed() throws(SwiftValue.ReadError) -> SwiftValue {
    position += 1
    skipSpaces()
    if current == ":" {
      position += 1
      skipSpaces()
      guard current == "]" else { throw error("expected ']' after '[:'") }
      position += 1
      return .dictionary([])
    }
    var elements: [SwiftValue] = []
    var entries: [SwiftValue.Entry] = []
    while current != "]" {
      guard current != nil else { throw error("'[' is not closed") }
      let element = try value()
      skipSpaces()
      if current == ":" {
        guard elements.isEmpty else { throw error("a list's elements have no keys") }
        position += 1
        entries.append(.init(key: element, value: try value()))
        skipSpaces()
      } else {
        guard entries.isEmpty else { throw error("a dictionary's entries need a key and ':'") }
        elements.append(element)
      }
      if current == "," {
        position += 1
        skipSpaces()
      } else if current != "]" {
        if current?.isLetter == true {
          throw error("the printed list was cut short: write its elements in full")
        }
        throw error("expected ',' or ']'")
      }
    }
    position += 1
    return entries.isEmpty ? .list(open: "[", elements: elements, close: "]") : .dictionary(entries)
  }

  /// A string literal, kept quoted: `"milk"`.
  private mutating func string() throws(SwiftValue.ReadError) -> SwiftValue {
    let start = position
    position += 1
    while let character = current, character != "\"" {
      position += character == "\\" ? 2 : 1
    }
    guard current == "\"" else {
      position = start
      throw error("a string is not closed")
    }
    position += 1
    let literal = String(characters[start..<position])
    guard (try? JSONValue(parsing: Array(literal.utf8)))?.stringValue != nil else {
      position = start
      throw error("not a string literal with JSON's escapes")
    }
    return .atom(literal, .string)
  }

  /// The text of a string literal ``string()`` read.
  static func unquoted(_ literal: String) -> String {
    (try? JSONValue(parsing: Array(literal.utf8)))?.stringValue ?? literal
  }

  /// `\.$draft`, `\.child.$note`.
  private mutating func keyPath() -> SwiftValue {
    let start = position
    position += 1
    while let character = current,
      character.isLetter || character.isNumber || "_$.".contains(character)
    {
      position += 1
    }
    return .atom(String(characters[start..<position]), .symbol)
  }

  /// A stack element's id, `#3`.
  private mutating func stackID() throws(SwiftValue.ReadError) -> SwiftValue {
    let start = position
    position += 1
    while current?.isNumber == true, current?.isASCII == true { position += 1 }
    guard position > start + 1 else { throw error("a stack id is '#' and a number: #3") }
    return .atom(String(characters[start..<position]), .symbol)
  }

  /// A number: `3`, `-2.5`, `1e-9`, `1_000`.
  private mutating func number() throws(SwiftValue.ReadError) -> SwiftValue {
    let start = position
    position += 1
    while let character = current, character.isASCII,
      character.isNumber || ".eE+-_".contains(character)
    {
      position += 1
    }
    let text = String(characters[start..<position].filter { $0 != "_" })
    guard (try? JSONValue(parsing: Array(text.utf8)))?.doubleValue != nil else {
      position = start
      throw error("not a number")
    }
    return .atom(text.hasPrefix("+") ? String(text.dropFirst()) : text, .number)
  }

  /// A UUID, whole or cut to its ends (`3F2A…9B1C`), or an ISO 8601 date, read whole; `nil`,
  /// with nothing read, for anything else.
  private mutating func uuidOrDate() -> String? {
    var end = position
    while end < characters.count, characters[end].isASCII || characters[end] == "…",
      characters[end].isHexDigit || "-…:.+TZ".contains(characters[end])
    {
      end += 1
    }
    let word = String(characters[position..<end])
    if PrintedForm.date(reading: word) != nil
      || (!word.contains(":") && PrintedForm.uuid(reading: word) != nil && word.count > 1
        && (word.contains("…") || PrintedForm.isUUIDText(word)))
    {
      position = end
      return word
    }
    return nil
  }

  /// A type or case name: `Todo.State`, `Favoriting<Int>.Action`, `label`.
  private mutating func typeName() -> String {
    let start = position
    var angles = 0
    while let character = current {
      if character.isLetter || character.isNumber || character == "_" {
        position += 1
      } else if character == ".", let next = peek(1), next.isLetter || next == "_" {
        position += 1
      } else if character == "<" {
        angles += 1
        position += 1
      } else if character == ">", angles > 0 {
        angles -= 1
        position += 1
      } else if angles > 0, character == "," || character == " " {
        position += 1
      } else {
        break
      }
    }
    return String(characters[start..<position])
  }

  private mutating func identifier() -> String {
    let start = position
    while let character = current, character.isLetter || character.isNumber || character == "_" {
      position += 1
    }
    return String(characters[start..<position])
  }

  /// The index of the `)` that closes the `(` at `open`, skipping string literals.
  private func matchingParenthesis(from open: Int) -> Int? {
    var depth = 0
    var index = open
    var inString = false
    while index < characters.count {
      let character = characters[index]
      if inString {
        if character == "\\" { index += 1 } else if character == "\"" { inString = false }
      } else if character == "\"" {
        inString = true
      } else if character == "(" {
        depth += 1
      } else if character == ")" {
        depth -= 1
        if depth == 0 { return index }
      }
      index += 1
    }
    return nil
  }
}
