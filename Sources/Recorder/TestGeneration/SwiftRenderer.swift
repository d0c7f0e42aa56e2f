import TraceJSON

/// Writes recorded JSON back as Swift expressions, using what the trace says about the types.
///
/// A value becomes a literal where Swift has one for its type (numbers, strings, booleans,
/// arrays, dictionaries, enum cases, `UUID(7)`, `Date(timeIntervalSinceReferenceDate:)`, ids
/// that take an integer or string literal), a struct its memberwise initializer where the trace
/// read its stored properties, a stack a closure that keeps its ids; and otherwise a call to
/// the generated file's `decoded(_:)`, which decodes the recorded JSON with the type the
/// context asks for. That fallback compiles for a `Decodable` type, so an unknown or
/// hand-encoded one costs readability, not a build.
struct SwiftRenderer {
  let schema: TypeSchema
  /// Set when an expression needed the `decoded(_:)` fallback, so the file defines it.
  private(set) var usesDecoding = false
  /// Types decoded although the trace says they are not `Decodable`: the file then does not
  /// compile, and says why.
  private(set) var undecodableTypes: Set<String> = []

  init(schema: TypeSchema) {
    self.schema = schema
  }

  /// The expression for `json`, a value of the Swift type `type` (`nil` when unknown).
  ///
  /// A decoded fallback longer than `inlineLimit` characters of JSON is written pretty-printed,
  /// over several lines.
  mutating func expression(
    _ json: JSONValue, type: String?, indent: Int = 0, inlineLimit: Int = 60
  ) -> String {
    guard var type = type.map(TypeName.unwrappingOptional) else {
      return fallback(json, indent, inlineLimit: inlineLimit)
    }
    // A wrapper encodes its wrapped value, which is what an initializer or an assignment takes.
    while TypeName.isArchitecture(type, named: "BindingState")
      || TypeName.isArchitecture(type, named: "PresentationState"),
      let wrapped = TypeName.genericArgument(of: type)
    {
      type = TypeName.unwrappingOptional(wrapped)
    }
    if json.isNull { return "nil" }
    if let scalar = scalar(json, type: type) { return scalar }
    if let expression = architectureValue(json, type: type, indent: indent) { return expression }
    if let expression = alertLike(json, type: type, indent: indent) { return expression }
    if let expression = standardValue(json, type: type, indent: indent) { return expression }
    if TypeName.isArchitecture(type, named: "StackState") {
      return stack(json, type: type, indent: indent) ?? fallback(json, indent)
    }
    switch schema.description(of: type) {
    case .enumeration(let cases)?:
      if let expression = enumCase(json, cases: cases, indent: indent) { return expression }
    case .rawEnumeration(let cases)?:
      let raw = json.jsonString
      if let name = cases.first(where: { $0.raw == raw })?.name, TypeName.isIdentifier(name) {
        return "." + Self.escapedMember(name)
      }
    case .collection(let element)?:
      if let elements = json.arrayValue {
        return list(elements.map { expression($0, type: element, indent: indent + 1) }, indent)
      }
    case .dictionary(let valueType)?:
      if let object = json.objectValue {
        if object.isEmpty { return "[:]" }
        return list(
          object.map {
            stringLiteral($0.key) + ": " + expression($0.value, type: valueType, indent: indent + 1)
          },
          indent
        )
      }
    case .literal(.integer)?:
      switch json {
      case .integer, .unsignedInteger: return json.jsonString
      default: break
      }
    case .literal(.string)?:
      if let text = json.stringValue { return stringLiteral(text) }
    case .structure(let members)?:
      if let expression = memberwise(json, type: type, members: members, indent: indent) {
        return expression
      }
    case nil:
      break
    }
    // A trace that read any type's facts says which types are `Decodable`.
    if !schema.fields.isEmpty || !schema.decodableTypes.isEmpty,
      schema.description(of: type) != nil || schema.fields[type] != nil,
      !schema.decodableTypes.contains(type)
    {
      undecodableTypes.insert(type)
    }
    return fallback(json, indent, inlineLimit: inlineLimit)
  }

  /// The decoding fallback: `try decoded(#"…"#)`, the JSON over several lines when it is long,
  /// each as full as the width allows.
  mutating func fallback(_ json: JSONValue, _ indent: Int, inlineLimit: Int = 60) -> String {
    usesDecoding = true
    let compact = Self.escapingBidiControls(inJSON: json.jsonString)
    if compact.count <= inlineLimit {
      return "try decoded(\(Self.rawString(compact)))"
    }
    let pad = String(repeating: "  ", count: indent + 1)
    let lines = Self.wrapped(compact, width: max(40, 100 - pad.count))
    let body = lines.map { pad + $0 }.joined(separator: "\n")
    let hashes = Self.hashes(for: compact)
    return "try decoded(\n\(pad)\(hashes)\"\"\"\n\(body)\n\(pad)\"\"\"\(hashes)\n"
      + String(repeating: "  ", count: indent) + ")"
  }

  /// Compact JSON text broken after commas outside strings, into lines of at most `width`
  /// characters where the tokens allow: JSON allows a line break between any two tokens.
  static func wrapped(_ text: String, width: Int) -> [String] {
    var pieces: [Substring] = []
    var start = text.startIndex
    var inString = false
    var escaped = false
    for index in text.indices {
      let character = text[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "," {
        let end = text.index(after: index)
        pieces.append(text[start..<end])
        start = end
      }
    }
    pieces.append(text[start...])
    var lines: [String] = []
    var line = ""
    for piece in pieces {
      if !line.isEmpty, line.count + piece.count > width {
        lines.append(line)
        line = ""
      }
      line += piece
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  private func scalar(_ json: JSONValue, type: String) -> String? {
    let name = TypeName.shortName(type)
    if TypeName.integerNames.contains(name) {
      switch json {
      case .integer, .unsignedInteger: return json.jsonString
      default: return nil
      }
    }
    switch name {
    case "String", "Substring", "Character":
      return json.stringValue.map(stringLiteral)
    case "Bool":
      return json.boolValue.map { $0 ? "true" : "false" }
    case "Double", "Float", "CGFloat":
      switch json {
      case .integer, .unsignedInteger, .double: return json.jsonString
      case .string("NaN"): return ".nan"
      case .string("Infinity"): return ".infinity"
      case .string("-Infinity"): return "-.infinity"
      default: return nil
      }
    case "StackElementID":
      // Tests name stack elements by the integer literal of their id.
      switch json {
      case .integer(let value) where value >= 0: return json.jsonString
      default: return nil
      }
    case "UUID":
      return json.stringValue.map(uuid)
    case "Date":
      return json.doubleValue.map { "Date(timeIntervalSinceReferenceDate: \(Self.number($0)))" }
    case "URL":
      return json.stringValue.map { "URL(string: \(stringLiteral($0)))!" }
    case "IndexSet":
      return indexSet(json)
    default:
      return nil
    }
  }

  private mutating func enumCase(
    _ json: JSONValue, cases: [(name: String, payload: [TypeSchema.Member])], indent: Int
  ) -> String? {
    guard let object = json.objectValue, object.count == 1,
      let known = cases.first(where: { $0.name == object[0].key }),
      TypeName.isIdentifier(known.name), let payload = object[0].value.objectValue
    else { return nil }
    let name = "." + Self.escapedMember(known.name)
    // Labels in the order the case declares them; an absent optional is `nil`.
    var labels = known.payload.map(\.name)
    labels += payload.keys.filter { !labels.contains($0) }
    guard !labels.isEmpty else { return name }
    var arguments: [String] = []
    for label in labels {
      let member = known.payload.first { $0.name == label }
      let value: String
      if let json = payload[label] {
        value = expression(json, type: member?.type, indent: indent)
      } else if member?.isOptional == true {
        value = "nil"
      } else {
        return nil
      }
      // A label is pasted into the source: one that is not an identifier cannot be written.
      if SwiftValueScalars.isPositional(label) {
        arguments.append(value)
      } else if TypeName.isIdentifier(label) {
        arguments.append("\(label): \(value)")
      } else {
        return nil
      }
    }
    return name + "(" + arguments.joined(separator: ", ") + ")"
  }

  /// Whether the type with this mangled name belongs to a module the file imports (one of the
  /// trace's types comes from it) and is not `private` or local, so a test can name it.
  func isImportedAndVisible(mangledTypeName mangled: String) -> Bool {
    guard !mangled.contains("P33_"), !mangled.contains("$") else { return false }
    let digits = mangled.prefix { $0.isNumber }
    guard let length = Int(digits), length > 0,
      mangled.count >= digits.count + length
    else { return false }
    let module = String(mangled.dropFirst(digits.count).prefix(length))
    return schema.types.keys.contains { TypeName.module(of: $0) == module }
  }

  /// An error of type `name` written as Swift from its recorded value: `PaymentError()` for an
  /// empty struct, `PaymentError.declined` or `.declined(code: 51)` for a case whose values
  /// are scalars; `nil` for anything else.
  static func errorExpression(_ name: String, _ value: JSONValue) -> String? {
    guard isTypeName(name), let object = value.objectValue else { return nil }
    if object.count == 0 { return name + "()" }
    guard object.count == 1, TypeName.isIdentifier(object[0].key),
      let arguments = object[0].value.objectValue
    else { return nil }
    var written: [String] = []
    for (label, argument) in arguments {
      let literal: String
      switch argument {
      case .string(let text): literal = stringLiteral(text)
      case .bool(let flag): literal = "\(flag)"
      case .integer(let number): literal = "\(number)"
      case .unsignedInteger(let number): literal = "\(number)"
      default: return nil
      }
      let positional = label.hasPrefix("_") && Int(label.dropFirst()) != nil
      guard positional || TypeName.isIdentifier(label) else { return nil }
      written.append(positional ? literal : "\(label): \(literal)")
    }
    let caseName = name + "." + object[0].key
    return written.isEmpty ? caseName : caseName + "(" + written.joined(separator: ", ") + ")"
  }

  /// Values of `Architecture`'s types whose encoding is not a synthesized one, written as a
  /// person writes them: `.success(…)`, `.failure(RecordedError(…))`, `.set(\.$name, "x")`.
  private mutating func architectureValue(_ json: JSONValue, type: String, indent: Int) -> String?
  {
    guard TypeName.module(of: type) == "Architecture", let object = json.objectValue,
      object.count == 1
    else { return nil }
    let (key, payload) = object[0]
    switch (TypeName.shortName(type), key) {
    case ("TaskResult", "success"):
      return ".success(" + expression(
        payload, type: TypeName.genericArgument(of: type), indent: indent) + ")"
    case ("TaskResult", "failure"):
      guard let fields = payload.objectValue, let name = fields["type"]?.stringValue,
        let description = fields["description"]?.stringValue
      else { return nil }
      // The error itself, when its recorded value is a case or an empty struct the test can
      // write: a reducer that branches on `error as? PaymentError` then takes the same branch.
      if let value = fields["value"], let mangled = fields["mangledType"]?.stringValue,
        isImportedAndVisible(mangledTypeName: mangled),
        let error = Self.errorExpression(name, value)
      {
        return ".failure(\(error))"
      }
      // The localized texts too, so a reducer showing `localizedDescription` shows them.
      var arguments = [
        "typeName: \(stringLiteral(name))", "description: \(stringLiteral(description))",
      ]
      for label in [
        "localizedDescription", "errorDescription", "failureReason", "recoverySuggestion",
        "helpAnchor",
      ] {
        if let text = fields[label]?.stringValue {
          arguments.append("\(label): \(stringLiteral(text))")
        }
      }
      return ".failure(RecordedError(" + arguments.joined(separator: ", ") + "))"
    case ("BindingAction", "set"):
      guard let fields = payload.objectValue, let keyPath = fields["keyPath"]?.stringValue,
        let value = fields["value"], TypeName.isBindingKeyPath(keyPath)
      else { return nil }
      let valueType = TypeName.genericArgument(of: type).flatMap {
        schema.bindingValueType(keyPath, in: $0)
      }
      let rendered =
        valueType.map { expression(value, type: $0, indent: indent) }
        ?? fallback(value, indent)
      return ".set(\\.\(keyPath), \(rendered))"
    default:
      return nil
    }
  }

  /// A UUID: `UUID(7)` for the ones `UUIDGenerator.incrementing` makes, as TCA's tests write
  /// them.
  private func uuid(_ text: String) -> String {
    let prefix = "00000000-0000-0000-0000-"
    if text.hasPrefix(prefix), let count = UInt64(text.dropFirst(prefix.count), radix: 16) {
      return "UUID(\(count))"
    }
    return "UUID(uuidString: \(stringLiteral(text)))!"
  }

  /// Foundation encodes an `IndexSet` as its ranges; a few indexes read best as a literal.
  private func indexSet(_ json: JSONValue) -> String? {
    guard let ranges = json.objectValue?["indexes"]?.arrayValue else { return nil }
    var indexes: [Int64] = []
    for range in ranges {
      guard let location = range.objectValue?["location"]?.int64Value,
        let length = range.objectValue?["length"]?.int64Value, length >= 0
      else { return nil }
      if ranges.count == 1, length > 8 {
        return "IndexSet(integersIn: \(location)..<\(location + length))"
      }
      indexes += (0..<length).map { location + $0 }
    }
    guard indexes.count <= 16 else { return nil }
    return "[" + indexes.map(String.init).joined(separator: ", ") + "]"
  }

  private func list(_ elements: [String], _ indent: Int) -> String {
    if elements.isEmpty { return "[]" }
    let single = "[" + elements.joined(separator: ", ") + "]"
    if single.count <= 70, !single.contains("\n") { return single }
    let pad = String(repeating: "  ", count: indent + 1)
    let lines = Self.packed(elements, width: 100 - pad.count, lastComma: true)
    return "[\n" + lines.map { pad + $0 + "\n" }.joined()
      + String(repeating: "  ", count: indent) + "]"
  }

  func stringLiteral(_ text: String) -> String { Self.stringLiteral(text) }

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

  // MARK: Names

  /// Whether `name` is a type name as `String(reflecting:)` writes one, and nothing else:
  /// identifiers joined by dots, each optionally with generic arguments that are type names
  /// themselves, separated by `, ` (`Architecture.IdentifiedArray<Foundation.UUID, Todos.Todo>`,
  /// `Architecture.StackState<App.Path.State>.Entry`). A name from a trace is pasted into the
  /// generated source, so anything more (spaces, quotes, parentheses, keywords) is refused.
  static func isTypeName(_ name: String) -> Bool {
    var parser = TypeNameParser(Array(name.unicodeScalars))
    return parser.parseType() && parser.isAtEnd
  }

  /// Whether `name` can stand for a module in an `import` line: an identifier, not a keyword.
  static func isModuleName(_ name: String) -> Bool {
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
        !SwiftRenderer.reservedTypeWords.contains(identifier)
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

  private static let keywords: Set<String> = [
    "default", "self", "Self", "init", "class", "struct", "enum", "func", "var", "let", "in",
    "is", "as", "if", "else", "for", "while", "switch", "case", "return", "true", "false", "nil",
    "import", "protocol", "extension", "static", "where", "do", "try", "throw", "repeat",
  ]

  /// A member name, back-quoted when it is a keyword.
  static func escapedMember(_ name: String) -> String {
    keywords.contains(name) && name != "self" && name != "init" ? "`\(name)`" : name
  }

  /// A number as Swift writes it: whole values without a fraction.
  static func number(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return JSONValue.double(value).jsonString
  }

  /// A raw string literal, with enough `#` that the text cannot end it.
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
        result += "\\u" + String(scalar.value, radix: 16, uppercase: true)
          .leftPadded(to: 4)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  static func rawString(_ text: String) -> String {
    let hashes = hashes(for: text)
    return hashes + "\"" + text + "\"" + hashes
  }

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
}

extension String {
  /// The text with leading zeros up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
