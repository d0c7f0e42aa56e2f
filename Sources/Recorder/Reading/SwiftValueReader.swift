import TraceJSON

/// Turns a printed value back into the JSON it was printed from: the inverse of ``SwiftValue``'s
/// builder, by the same types and the same forms (``PrintedForm``).
///
/// With the value's type and the trace's ``TypeSchema`` it follows the printer's rules back: a
/// raw-valued enum's `.completed` is its raw value, a payload value its case's label, a struct's
/// `nil` member left out. Without a type it reads what the text says: a case as `Codable` writes
/// one, `UUID(7)` as its string, a date as its seconds, `.seconds(2)` as a `Duration`.
///
/// What the printer shortened it restores from `known`, the strings recorded near the value:
/// `UUID(3F2504E0…)` and a label's `3F2A…9B1C` are the one recorded UUID with those ends.
///
/// ```swift
/// let reader = SwiftValueReader(schema: trace.typeSchema(), known: stringsOfStep12)
/// try reader.json(".pinTapped(id: 0000…0001)", type: header.actionType)
/// // {"pinTapped":{"id":"00000000-0000-0000-0000-000000000001"}}
/// ```
package struct SwiftValueReader: Sendable {
  package var schema: TypeSchema
  /// Strings a shortened UUID or string may stand for.
  package var known: [String]

  package init(schema: TypeSchema = TypeSchema(), known: [String] = []) {
    self.schema = schema
    self.known = known
  }

  /// The JSON of `text`, a printed value of `type` (`nil` when unknown).
  package func json(_ text: String, type: String?) throws(SwiftValue.ReadError) -> JSONValue {
    try json(SwiftValue(reading: text), type: type)
  }

  /// The JSON of a parsed value of `type` (`nil` when unknown).
  package func json(_ value: SwiftValue, type: String?) throws(SwiftValue.ReadError) -> JSONValue {
    if case .atom("nil", .keyword) = value { return .null }
    guard let type = type.map(TypeName.unwrappingValue) else { return try untyped(value) }
    if let scalar = try scalar(value, type: type) { return scalar }
    if let architecture = try architectureValue(value, type: type) { return architecture }
    let short = TypeName.shortName(type)
    if short == "Dictionary", let (key, valueType) = TypeName.dictionaryArguments(of: type) {
      return try dictionary(value, keyType: key, valueType: valueType)
    }
    if ["Set", "Array", "ContiguousArray"].contains(short), TypeName.module(of: type) == "Swift" {
      return try list(value, element: TypeName.genericArgument(of: type))
    }
    switch schema.description(of: type) {
    case .structure(let members)?:
      return try structure(value, type: type, members: members)
    case .enumeration(let cases)?:
      return try enumeration(value, type: type, cases: cases)
    case .rawEnumeration(let cases)?:
      if case .call(let name, []) = value, name.hasPrefix(".") {
        guard let raw = cases.first(where: { "." + $0.name == name })?.raw,
          let json = try? JSONValue(parsing: Array(raw.utf8))
        else { throw Self.error(value, "no case \(name) in \(Self.shown(type))") }
        return json
      }
    case .collection(let element)?:
      return try list(value, element: element)
    case .dictionary(let valueType)?:
      return try dictionary(value, keyType: "Swift.String", valueType: valueType)
    case .literal?, nil:
      break
    }
    return try untyped(value)
  }

  /// Every string in `values`, for ``known``: the UUIDs and texts a printed form may shorten.
  package static func strings(in values: [JSONValue]) -> [String] {
    var found: [String] = []
    func collect(_ value: JSONValue) {
      switch value {
      case .string(let text): found.append(text)
      case .array(let elements): elements.forEach(collect)
      case .object(let object):
        for (key, member) in object {
          found.append(key)
          collect(member)
        }
      default: break
      }
    }
    values.forEach(collect)
    return found
  }

  // MARK: Without a type

  /// What the text says, as `Codable` writes it.
  func untyped(_ value: SwiftValue) throws(SwiftValue.ReadError) -> JSONValue {
    switch value {
    case .atom(let text, let kind):
      switch kind {
      case .keyword: return text == "nil" ? .null : .bool(text == "true")
      case .number: return try number(text)
      case .string: return .string(restored(SwiftValueParser.unquoted(text)))
      case .symbol:
        if let uuid = try uuid(value) { return .string(uuid) }
        if let seconds = PrintedForm.date(reading: text) { return .double(seconds) }
        if text.hasPrefix("URL("), text.hasSuffix(")") {
          return .string(String(text.dropFirst(4).dropLast()))
        }
        if text.hasPrefix("IndexSet("), let indexes = try indexSet(text) { return indexes }
        throw Self.error(value, "no value is written so here")
      }
    case .list(_, let elements, _):
      return .array(
        try elements.map { (element) throws(SwiftValue.ReadError) in try untyped(element) })
    case .dictionary(let entries):
      if !entries.isEmpty, entries.allSatisfy({ Self.stackID($0.key) != nil }) {
        return try stack(entries, element: nil)
      }
      var object = JSONObject()
      for entry in entries {
        object[try key(entry.key)] = try untyped(entry.value)
      }
      return .object(object)
    case .call(let name, let arguments):
      if name == ".set", arguments.count == 2, case .atom(let path, .symbol) = arguments[0].value,
        path.hasPrefix("\\.")
      {
        return try binding(path, arguments[1].value, valueType: nil)
      }
      if let duration = try duration(value) { return duration }
      if name == "Date", let seconds = try date(value) { return .double(seconds) }
      if name.hasPrefix(".") { return try enumCase(name, arguments, payload: nil, type: nil) }
      var object = JSONObject()
      for argument in arguments {
        guard let label = argument.label else {
          throw Self.error(value, "a struct's members are written with their names")
        }
        let member = try untyped(argument.value)
        if member != .null { object[label] = member }
      }
      return .object(object)
    case .code:
      throw Self.error(value, "no value is written so here")
    }
  }

  // MARK: Scalars

  /// A value of a type whose encoding is not its Swift shape; `nil` for any other type.
  private func scalar(_ value: SwiftValue, type: String) throws(SwiftValue.ReadError) -> JSONValue?
  {
    let name = TypeName.shortName(type)
    if TypeName.integerNames.contains(name) || ["Double", "Float", "CGFloat"].contains(name) {
      guard case .atom(let text, .number) = value else {
        throw Self.error(value, "a \(name) is a number")
      }
      return try number(text)
    }
    switch name {
    case "String", "Substring", "Character":
      guard case .atom(let text, .string) = value else {
        throw Self.error(value, "a \(name) is a string literal in quotes")
      }
      return .string(restored(SwiftValueParser.unquoted(text)))
    case "Bool":
      guard case .atom(let text, .keyword) = value, text != "nil" else {
        throw Self.error(value, "a Bool is true or false")
      }
      return .bool(text == "true")
    case "UUID":
      guard let uuid = try uuid(value) else {
        throw Self.error(value, "a UUID is UUID(7), UUID(3F2504E0…), 3F25…9B1C or its text")
      }
      return .string(uuid)
    case "Date":
      if case .atom(let text, .number) = value { return try number(text) }
      guard let seconds = try date(value) else {
        throw Self.error(
          value, "a Date is 2026-11-27T15:40:00Z or Date(timeIntervalSinceReferenceDate: …)")
      }
      return .double(seconds)
    case "Duration":
      if case .list(_, let elements, _) = value, elements.count == 2 {
        return try untyped(value)  // The encoded pair, as a label of an untyped trace shows it.
      }
      guard let duration = try duration(value) else {
        throw Self.error(value, "a Duration is .seconds(…), .milliseconds(…) or .zero")
      }
      return duration
    case "URL":
      guard case .atom(let text, .symbol) = value, text.hasPrefix("URL("), text.hasSuffix(")")
      else {
        throw Self.error(value, "a URL is URL(https://…)")
      }
      return .string(String(text.dropFirst(4).dropLast()))
    case "IndexSet":
      guard case .atom(let text, .symbol) = value, let indexes = try indexSet(text) else {
        throw Self.error(value, "an IndexSet is IndexSet([0, 1]) or IndexSet(integersIn: 0..<5)")
      }
      return indexes
    case "Data":
      throw Self.error(value, "Data is printed by its size only: give the action as JSON")
    default:
      return nil
    }
  }

  private func number(_ text: String) throws(SwiftValue.ReadError) -> JSONValue {
    switch text {
    case ".nan": return .string("NaN")
    case ".infinity": return .string("Infinity")
    case "-.infinity": return .string("-Infinity")
    default: break
    }
    guard let json = try? JSONValue(parsing: Array(text.utf8)) else {
      throw .init("cannot read '\(SwiftValueParser.shown(text.prefix(40)))': not a number")
    }
    return json
  }

  /// The UUID a printed form names, restoring a shortened one from ``known``; `nil` when the
  /// value is not a UUID's form.
  private func uuid(_ value: SwiftValue) throws(SwiftValue.ReadError) -> String? {
    let text: String
    switch value {
    case .atom(let symbol, .symbol): text = symbol
    case .atom(let literal, .string): return SwiftValueParser.unquoted(literal)
    default: return nil
    }
    switch PrintedForm.uuid(reading: text) {
    case .exact(let uuid)?:
      return uuid
    case .elided(let prefix, let suffix)?:
      let matches = Set(
        known.filter {
          PrintedForm.isUUIDText($0) && $0.hasPrefix(prefix) && $0.hasSuffix(suffix)
        })
      guard matches.count == 1, let match = matches.first else {
        throw Self.error(
          value,
          matches.isEmpty
            ? "no UUID recorded here has those ends: write it whole, or UUID(n) for a counted one"
            : "\(matches.count) UUIDs recorded here have those ends: write more of it")
      }
      return match
    case nil:
      return nil
    }
  }

  /// A string a label cut short (`"Buy mi…"`) is the one recorded string it begins.
  private func restored(_ text: String) -> String {
    guard text.hasSuffix("…") else { return text }
    let matches = Set(known.filter { $0.hasPrefix(text.dropLast()) && $0.count > text.count - 1 })
    return matches.count == 1 ? matches.first! : text
  }

  private func date(_ value: SwiftValue) throws(SwiftValue.ReadError) -> Double? {
    switch value {
    case .atom(let text, .symbol):
      return PrintedForm.date(reading: text)
    case .call("Date", let arguments):
      guard arguments.count == 1, arguments[0].label == "timeIntervalSinceReferenceDate",
        case .atom(let text, .number) = arguments[0].value, let seconds = Double(text)
      else { throw Self.error(value, "write Date(timeIntervalSinceReferenceDate: seconds)") }
      return seconds
    default:
      return nil
    }
  }

  private func duration(_ value: SwiftValue) throws(SwiftValue.ReadError) -> JSONValue? {
    switch value {
    case .call(".zero", []):
      return PrintedForm.duration(reading: ".zero")
    case .call(let name, let arguments)
    where PrintedForm.durationUnits.contains(where: { "." + $0.0 == name }):
      guard arguments.count == 1, arguments[0].label == nil,
        case .atom(let amount, .number) = arguments[0].value
      else { return nil }
      guard let duration = PrintedForm.duration(unit: String(name.dropFirst()), amount: amount)
      else {
        throw Self.error(value, "the duration is out of range")
      }
      return duration
    default:
      return nil
    }
  }

  /// `IndexSet([0, 1, 5])` or `IndexSet(integersIn: 0..<500)`, as `Codable` writes one: ranges.
  private func indexSet(_ text: String) throws(SwiftValue.ReadError) -> JSONValue? {
    let inner = text.dropFirst("IndexSet(".count).dropLast()
    var indexes: [Int64] = []
    if inner.hasPrefix("integersIn:") {
      let bounds = inner.dropFirst("integersIn:".count).split(separator: ".").filter { !$0.isEmpty }
      guard bounds.count == 2, let low = Int64(bounds[0].filter { $0 != " " }),
        let high = Int64(bounds[1].filter { $0 != " " && $0 != "<" }), low <= high
      else { return nil }
      return Self.ranges([(low, high - low)])
    }
    guard case .list(_, let elements, _)? = try? SwiftValue(reading: String(inner)) else {
      return nil
    }
    for element in elements {
      guard case .atom(let number, .number) = element, let index = Int64(number) else {
        return nil
      }
      indexes.append(index)
    }
    var ranges: [(Int64, Int64)] = []
    for index in indexes.sorted() {
      if let last = ranges.last, last.0 + last.1 == index {
        ranges[ranges.count - 1].1 += 1
      } else if ranges.last.map({ $0.0 + $0.1 > index }) != true {
        ranges.append((index, 1))
      }
    }
    return Self.ranges(ranges)
  }

  private static func ranges(_ ranges: [(Int64, Int64)]) -> JSONValue {
    .object([
      "indexes": .array(
        ranges.map { .object(["location": .integer($0.0), "length": .integer($0.1)]) })
    ])
  }

  // MARK: Collections, structs and enums

  private func list(_ value: SwiftValue, element: String?) throws(SwiftValue.ReadError) -> JSONValue
  {
    guard case .list(_, let elements, _) = value else {
      throw Self.error(value, "a collection is written [a, b]")
    }
    return .array(
      try elements.map { (item) throws(SwiftValue.ReadError) in try json(item, type: element) })
  }

  private func dictionary(
    _ value: SwiftValue, keyType: String, valueType: String
  ) throws(SwiftValue.ReadError) -> JSONValue {
    let entries: [SwiftValue.Entry]
    switch value {
    case .dictionary(let list): entries = list
    case .list(_, let elements, _) where elements.isEmpty: entries = []
    default: throw Self.error(value, "a dictionary is written [key: value] or [:]")
    }
    // `Codable` writes string and integer keys as an object's, any other as a flat array.
    let keyName = TypeName.shortName(TypeName.unwrappingValue(keyType))
    if keyName == "String" || TypeName.isInteger(keyType) {
      var object = JSONObject()
      for entry in entries {
        let key = try json(entry.key, type: keyType)
        object[key.stringValue ?? key.jsonString] = try json(entry.value, type: valueType)
      }
      return .object(object)
    }
    var flat: [JSONValue] = []
    for entry in entries {
      flat.append(try json(entry.key, type: keyType))
      flat.append(try json(entry.value, type: valueType))
    }
    return .array(flat)
  }

  private func structure(
    _ value: SwiftValue, type: String, members: [TypeSchema.Member]
  ) throws(SwiftValue.ReadError) -> JSONValue {
    guard case .call(let name, let arguments) = value, !name.hasPrefix(".") else {
      throw Self.error(value, "a \(Self.shown(type)) is written \(TypeName.displayName(type))(…)")
    }
    var object = JSONObject()
    for argument in arguments {
      guard let label = argument.label else {
        throw Self.error(value, "a struct's members are written with their names")
      }
      // A member the recording's schema lacks may be today's: read as written.
      let member = members.first { $0.name == label }
      let json = try json(argument.value, type: member?.type)
      // The recorder leaves a `nil` optional out.
      if json != .null || member?.isOptional == false { object[label] = json }
    }
    return .object(object)
  }

  private func enumeration(
    _ value: SwiftValue, type: String, cases: [(name: String, payload: [TypeSchema.Member])]
  ) throws(SwiftValue.ReadError) -> JSONValue {
    guard case .call(let name, let arguments) = value, name.hasPrefix(".") else {
      throw Self.error(value, "a \(Self.shown(type)) is a case: .name or .name(…)")
    }
    if name == ".set", arguments.count == 2, case .atom(let path, .symbol) = arguments[0].value,
      path.hasPrefix("\\."), !cases.contains(where: { $0.name == "set" })
    {
      return try binding(path, arguments[1].value, valueType: nil)
    }
    // A case the recording never saw may be today's: read as written, and the host's decoder
    // says whether today's type has it.
    let known = cases.first { "." + $0.name == name }
    return try enumCase(name, arguments, payload: known?.payload, type: type)
  }

  /// `{"name": {label: value, "_1": value}}`; a payload value takes the label of its position.
  private func enumCase(
    _ name: String, _ arguments: [SwiftValue.Argument], payload: [TypeSchema.Member]?,
    type: String?
  ) throws(SwiftValue.ReadError) -> JSONValue {
    var object = JSONObject()
    for (position, argument) in arguments.enumerated() {
      var key = argument.label ?? "_\(position)"
      var memberType: String?
      var isOptional = false
      if let payload {
        // The schema knows the case: its payload in order, labels and all.
        let member =
          payload.first { $0.name == argument.label }
          ?? (position < payload.count
            && (argument.label == nil
              || SwiftValueScalars.isPositional(payload[position].name))
            ? payload[position] : nil)
        // A value the recorded case lacks may be today's: read as written.
        if let member {
          key = member.name
          memberType = member.type
          isOptional = member.isOptional
        }
      }
      let json = try json(argument.value, type: memberType)
      if json != .null || !isOptional { object[key] = json }
    }
    return .object([String(name.dropFirst()): .object(object)])
  }

  // MARK: Architecture's types

  private func architectureValue(
    _ value: SwiftValue, type: String
  ) throws(SwiftValue.ReadError) -> JSONValue? {
    guard type.hasPrefix("Architecture."), let argument = TypeName.genericArgument(of: type) else {
      return nil
    }
    if TypeName.isArchitectureGeneric(type, named: "BindingAction") {
      guard case .call(".set", let arguments) = value, arguments.count == 2,
        case .atom(let path, .symbol) = arguments[0].value, path.hasPrefix("\\.")
      else { throw Self.error(value, #"a binding action is written .set(\.$name, value)"#) }
      let keyPath = String(path.dropFirst(2))
      // A member the recording's schema lacks may be today's: its value is read as written.
      let valueType = schema.bindingValueType(keyPath, in: argument)
      return try binding(path, arguments[1].value, valueType: valueType)
    }
    if TypeName.isArchitectureGeneric(type, named: "StackState") {
      guard case .dictionary(let entries) = value else {
        if case .list(_, [], _) = value { return .array([]) }
        throw Self.error(value, "a stack is written [#0: element, #1: element]")
      }
      return try stack(entries, element: argument)
    }
    if TypeName.isArchitectureGeneric(type, named: "TaskResult") {
      switch value {
      case .call(".success", let arguments) where arguments.count == 1:
        return .object(["success": try json(arguments[0].value, type: argument)])
      default:
        throw Self.error(value, "a task result is .success(value); give a failure as JSON")
      }
    }
    return nil
  }

  /// `.set(\.$draft, "X")` as `{"set":{"keyPath":"$draft","value":"X"}}`.
  private func binding(
    _ path: String, _ value: SwiftValue, valueType: String?
  ) throws(SwiftValue.ReadError) -> JSONValue {
    let keyPath = String(path.dropFirst(2))
    guard TypeName.isBindingKeyPath(keyPath) else {
      throw Self.error(.atom(path, .symbol), #"a binding's key path is \.$name"#)
    }
    return .object([
      "set": .object(["keyPath": .string(keyPath), "value": try json(value, type: valueType)])
    ])
  }

  private func stack(
    _ entries: [SwiftValue.Entry], element: String?
  ) throws(SwiftValue.ReadError) -> JSONValue {
    var elements: [JSONValue] = []
    for entry in entries {
      guard let id = Self.stackID(entry.key) else {
        throw Self.error(entry.key, "a stack element's id is written #3")
      }
      elements.append(
        .object(["id": .integer(id), "element": try json(entry.value, type: element)]))
    }
    return .array(elements)
  }

  private static func stackID(_ value: SwiftValue) -> Int64? {
    guard case .atom(let text, .symbol) = value, text.hasPrefix("#") else { return nil }
    return Int64(text.dropFirst())
  }

  private func key(_ value: SwiftValue) throws(SwiftValue.ReadError) -> String {
    let json = try untyped(value)
    return json.stringValue ?? json.jsonString
  }

  // MARK: Messages

  static func error(_ value: SwiftValue, _ why: String) -> SwiftValue.ReadError {
    let text = value.text
    let shown = SwiftValueParser.shown(text.prefix(40)) + (text.count > 40 ? "…" : "")
    return .init("cannot read '\(shown)': \(why)")
  }

  private static func shown(_ type: String) -> String {
    SwiftValueParser.shown(TypeName.displayName(type).prefix(60))
  }
}
