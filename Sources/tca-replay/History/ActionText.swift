import TraceJSON

/// An action typed at the stepper's prompt, as JSON or as Swift writes an enum case:
///
/// ```
/// .incrementButtonTapped                     {"incrementButtonTapped":{}}
/// .watered(zone: 1, liters: 13)              {"watered":{"zone":1,"liters":13}}
/// .stocked("flour", count: 2)                {"stocked":{"_0":"flour","count":2}}
/// .destination(.presented(.save))            {"destination":{"_0":{"presented":{"_0":{"save":{}}}}}}
/// ```
///
/// Swift's synthesized `Codable` writes a case as an object keyed by its name, and its payload
/// as an object keyed by label, `_0`, `_1`… for unlabeled values; payload values are numbers,
/// strings, `true`, `false`, `nil`, arrays and nested cases. Anything else is given as JSON.
enum ActionText {
  struct ParseError: Error {
    var message: String
  }

  static func parse(_ text: String) throws(ParseError) -> JSONValue {
    let trimmed = text.trimmingWhitespace
    if trimmed.hasPrefix("{") {
      guard let json = try? JSONValue(parsing: Array(trimmed.utf8)) else {
        throw ParseError(message: "'\(trimmed)' is not valid JSON")
      }
      return json
    }
    var parser = Parser(characters: Array(trimmed))
    let value = try parser.value()
    parser.skipSpaces()
    guard parser.position == parser.characters.count else {
      throw ParseError(message: "unexpected '\(parser.rest)' after the action")
    }
    guard case .object = value else {
      throw ParseError(message: "an action is a case, like .increment or .set(3), or JSON")
    }
    return value
  }

  private struct Parser {
    let characters: [Character]
    var position = 0

    var rest: String { String(characters[position...].prefix(20)) }
    var current: Character? { position < characters.count ? characters[position] : nil }

    mutating func skipSpaces() {
      while current?.isWhitespace == true { position += 1 }
    }

    mutating func value() throws(ParseError) -> JSONValue {
      skipSpaces()
      switch current {
      case "."?: return try enumCase()
      case "\""?: return .string(try string())
      case "["?: return try array()
      case let character? where character.isNumber || character == "-": return try number()
      default:
        let word = identifier()
        switch word {
        case "true": return true
        case "false": return false
        case "nil": return .null
        case "UUID" where current == "(":
          return try uuid()
        default: throw ParseError(message: "cannot read '\(word.isEmpty ? rest : word)'")
        }
      }
    }

    mutating func identifier() -> String {
      let start = position
      while let character = current, character.isLetter || character.isNumber || character == "_" {
        position += 1
      }
      return String(characters[start..<position])
    }

    mutating func enumCase() throws(ParseError) -> JSONValue {
      position += 1  // The dot.
      let name = identifier()
      guard !name.isEmpty else { throw ParseError(message: "a case name must follow '.'") }
      var payload = JSONObject()
      skipSpaces()
      if current == "(" {
        position += 1
        var unlabeled = 0
        skipSpaces()
        while current != ")" {
          // A label is an identifier followed by a colon; otherwise the value is unlabeled.
          let mark = position
          let word = identifier()
          skipSpaces()
          var label: String
          if !word.isEmpty, current == ":" {
            position += 1
            label = word
          } else {
            position = mark
            label = "_\(unlabeled)"
            unlabeled += 1
          }
          payload[label] = try value()
          skipSpaces()
          if current == "," {
            position += 1
            skipSpaces()
          } else if current != ")" {
            throw ParseError(message: "expected ',' or ')' at '\(rest)'")
          }
        }
        position += 1
      }
      if let duration = Self.duration(name, payload) { return duration }
      return .object([name: .object(payload)])
    }

    /// `.seconds(6.93)` and the like, as the tool prints a `Duration`: its encoding.
    static func duration(_ unit: String, _ payload: JSONObject) -> JSONValue? {
      guard payload.count == 1, payload[0].key == "_0", let amount = payload[0].value.doubleValue
      else { return nil }
      let duration: Duration
      switch unit {
      case "seconds": duration = .seconds(amount)
      case "milliseconds": duration = .milliseconds(amount)
      case "microseconds": duration = .microseconds(amount)
      case "nanoseconds": duration = .nanoseconds(Int64(amount))
      default: return nil
      }
      return try? JSONValueEncoder().encode(duration)
    }

    /// `UUID(7)`, as tests and the tool write counted ids, or `UUID("…")`.
    mutating func uuid() throws(ParseError) -> JSONValue {
      position += 1  // The parenthesis.
      skipSpaces()
      let value = try self.value()
      skipSpaces()
      guard current == ")" else { throw ParseError(message: "expected ')' after UUID(…") }
      position += 1
      switch value {
      case let .integer(number) where number >= 0:
        let hex = String(number, radix: 16, uppercase: true)
        return .string("00000000-0000-0000-0000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex)
      case let .string(text):
        return .string(text)
      default:
        throw ParseError(message: "UUID(…) takes a number or a string")
      }
    }

    mutating func string() throws(ParseError) -> String {
      // Read as a JSON string: the same escapes as Swift's common ones.
      let start = position
      position += 1
      while let character = current, character != "\"" {
        position += character == "\\" ? 2 : 1
      }
      guard current == "\"" else { throw ParseError(message: "a string is not closed") }
      position += 1
      let literal = String(characters[start..<position])
      guard let value = (try? JSONValue(parsing: Array(literal.utf8)))?.stringValue else {
        throw ParseError(message: "cannot read the string \(literal)")
      }
      return value
    }

    mutating func number() throws(ParseError) -> JSONValue {
      let start = position
      position += 1
      while let character = current, character.isNumber || ".eE+-_".contains(character) {
        position += 1
      }
      let text = String(characters[start..<position].filter { $0 != "_" })
      guard let value = try? JSONValue(parsing: Array(text.utf8)) else {
        throw ParseError(message: "'\(text)' is not a number")
      }
      return value
    }

    mutating func array() throws(ParseError) -> JSONValue {
      position += 1
      var elements: [JSONValue] = []
      skipSpaces()
      while current != "]" {
        guard current != nil else { throw ParseError(message: "an array is not closed") }
        elements.append(try value())
        skipSpaces()
        if current == "," {
          position += 1
          skipSpaces()
        }
      }
      position += 1
      return .array(elements)
    }
  }
}
