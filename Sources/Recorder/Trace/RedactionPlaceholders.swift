import TraceJSON

/// Puts a placeholder of each redacted value's declared type where a trace wrote
/// `"<redacted>"`, so that a state or action holding one decodes and can be sent again.
///
/// The type comes from the trace's `types`: `"<redacted>"` for a string, `0` for a number,
/// `false`, an empty collection, a payload-free enum case, a struct of placeholders. A value
/// whose type the trace does not describe well enough gets none, and is listed as such.
/// ``Variant/other`` gives a second, different placeholder of the same types, so that running
/// a step with each tells whether the reducer reads the value.
struct RedactionPlaceholders {
  let schema: TypeSchema

  /// Which of the two placeholders of a type to use.
  enum Variant {
    /// The one generated tests use: `"<redacted>"`, `0`, `false`.
    case first
    /// Another one: `"<redacted 1>"`, `1`, `true`.
    case other
  }

  /// A redacted value found, and what stands in for it.
  struct Site: Equatable {
    /// Where, as a JSON Pointer into the state or action.
    var path: String
    /// Its declared type, as the test writes it; `nil` when the trace does not say.
    var type: String?
    /// What stands in for it; `nil` when no placeholder of its type could be made.
    var placeholder: JSONValue?
  }

  /// `json`, a value of `type`, with every redacted value replaced by a placeholder, and where
  /// each one was.
  func fill(
    _ json: JSONValue, type: String?, variant: Variant = .first
  ) -> (value: JSONValue, sites: [Site]) {
    var value = json
    var sites: [Site] = []
    fill(&value, type: type, isOptional: false, path: "", variant: variant, sites: &sites)
    return (value, sites)
  }

  private func fill(
    _ value: inout JSONValue, type: String?, isOptional: Bool, path: String,
    variant: Variant, sites: inout [Site]
  ) {
    if value == Redaction.placeholder {
      let made = type.flatMap { placeholder(of: $0, isOptional: isOptional, variant: variant) }
      sites.append(Site(path: path, type: type.map(Self.shownType), placeholder: made))
      if let made { value = made }
      return
    }
    guard value.containsRedaction else { return }
    let type = type.map(Self.valueType)
    func member(_ key: String, _ child: JSONValue) -> JSONValue {
      var child = child
      let declared = type.flatMap { memberType(key, in: $0, value: value) }
      fill(
        &child, type: declared?.type, isOptional: declared?.isOptional ?? false,
        path: path + "/" + JSONPointer.escape(key), variant: variant, sites: &sites)
      return child
    }
    switch value {
    case .object(var object):
      for position in object.indices {
        let key = object[position].key
        object.modifyValue(at: position) { $0 = member(key, $0) }
      }
      value = .object(object)
    case .array(var elements):
      let element = type.flatMap { type -> String? in
        if case .collection(let element)? = schema.description(of: type) { return element }
        return nil
      }
      for index in elements.indices {
        fill(
          &elements[index], type: element, isOptional: false, path: path + "/\(index)",
          variant: variant, sites: &sites)
      }
      value = .array(elements)
    default:
      break
    }
  }

  /// The declared type of member `key` of `value`, a value of `type`: a struct's member, an
  /// enum case's payload (reached as `case` then label), a dictionary's value, a binding's
  /// value.
  private func memberType(
    _ key: String, in type: String, value: JSONValue
  ) -> (type: String, isOptional: Bool)? {
    if type.hasPrefix(Self.payloadMarker), let dot = type.lastIndex(of: ".") {
      // The payload of a case: `payload of Module.Action.caseName`.
      let enumType = String(type[..<dot].dropFirst(Self.payloadMarker.count))
      let name = String(type[type.index(after: dot)...])
      guard case .enumeration(let cases)? = schema.description(of: enumType),
        let payload = cases.first(where: { $0.name == name })?.payload,
        let member = payload.first(where: { $0.name == key })
      else { return nil }
      return (member.type, member.isOptional)
    }
    if TypeName.isArchitecture(type, named: "BindingAction"), key == "set",
      let root = TypeName.genericArgument(of: type)
    {
      return (Self.bindingMarker + root, false)
    }
    if type.hasPrefix(Self.bindingMarker) {
      // `{"keyPath": "$name", "value": …}`: the value has the type of the field named.
      guard key == "value", let keyPath = value.objectValue?["keyPath"]?.stringValue,
        TypeName.isBindingKeyPath(keyPath)
      else { return nil }
      let root = String(type.dropFirst(Self.bindingMarker.count))
      return schema.bindingValueType(keyPath, in: root).map { ($0, false) }
    }
    switch schema.description(of: type) {
    case .structure(let members)?:
      return members.first { $0.name == key }.map { ($0.type, $0.isOptional) }
    case .dictionary(let valueType)?:
      return (valueType, false)
    case .enumeration(let cases)?:
      // The case's payload object: typed by a made-up name the next level resolves.
      guard cases.contains(where: { $0.name == key }) else { return nil }
      return (Self.payloadMarker + type + "." + key, false)
    default:
      return nil
    }
  }

  /// The type of a value, past the wrappers that encode as what they wrap.
  private static func valueType(_ type: String) -> String {
    var type = TypeName.unwrappingOptional(type)
    while TypeName.isArchitecture(type, named: "BindingState"),
      let wrapped = TypeName.genericArgument(of: type)
    {
      type = TypeName.unwrappingOptional(wrapped)
    }
    return type
  }

  /// A type as a test names it: without modules or wrappers, `String` for
  /// `Architecture.BindingState<Swift.String>`.
  static func shownType(_ type: String) -> String {
    TypeName.displayName(valueType(type))
  }

  /// Made-up type names for the objects inside an enum case and a binding action, which the
  /// schema does not name.
  private static let payloadMarker = "payload of "
  private static let bindingMarker = "binding of "

  /// A placeholder of `type`, or `nil` when none can be made from what the trace says.
  func placeholder(of type: String, isOptional: Bool, variant: Variant) -> JSONValue? {
    placeholder(of: type, isOptional: isOptional, ordinal: variant == .first ? 0 : 1)
  }

  /// The `ordinal`-th placeholder of `type`: 0 is what generated tests write, 1 differs from it
  /// in every scalar, and the elements of one collection take 0, 1, 2, … so that a redacted
  /// `Set` keeps its count when replayed.
  func placeholder(of type: String, isOptional: Bool, ordinal: Int) -> JSONValue? {
    var seen: Set<String> = []
    let made = placeholder(of: type, ordinal: ordinal, seen: &seen)
    // An optional that was redacted held a value: one of the wrapped type where possible.
    if made == nil, isOptional || type.hasPrefix("Swift.Optional<") { return .null }
    return made
  }

  private func placeholder(of declared: String, ordinal: Int, seen: inout Set<String>)
    -> JSONValue?
  {
    let type = Self.valueType(declared)
    let n = Int64(ordinal)
    switch TypeName.shortName(type) {
    case "String", "Substring":
      // Never empty: a trace keeps an empty string unredacted.
      return ordinal == 0 ? Redaction.placeholder : .string("<redacted \(n)>")
    case "Character": return ordinal == 0 ? "x" : "y"
    case "Bool": return .bool(ordinal % 2 == 1)
    case "Double", "Float", "CGFloat", "Decimal": return .integer(n)
    case _ where TypeName.integerNames.contains(TypeName.shortName(type)):
      return .integer(n)
    case "UUID":
      let hex = String(ordinal, radix: 16, uppercase: true)
      return .string(
        "00000000-0000-0000-0000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex)
    case "Date": return .integer(n)
    case "URL":
      return .string(
        ordinal == 0 ? "https://example.com/"
          : ordinal == 1 ? "https://example.org/" : "https://example.com/\(n)")
    case "Data": return .string(ordinal == 0 ? "AA==" : "AQ==")
    default: break
    }
    // A type that holds itself is made from its cases or members once only.
    guard !seen.contains(type) else { return nil }
    seen.insert(type)
    defer { seen.remove(type) }
    switch schema.description(of: type) {
    case .collection?:
      return .array([])
    case .dictionary?:
      return .object(JSONObject())
    case .rawEnumeration(let cases)?:
      let raw = ordinal % 2 == 0 ? cases.first?.raw : (cases.dropFirst().first ?? cases.first)?.raw
      return raw.flatMap { try? JSONValue(parsing: $0) }
    case .enumeration(let cases)?:
      // A case with no payload, or one whose payload can be made.
      let ordered = ordinal % 2 == 0 ? cases : Array(cases.reversed())
      for known in ordered {
        var payload = JSONObject()
        var made = true
        for member in known.payload where !member.isOptional {
          guard let value = placeholder(of: member.type, ordinal: 0, seen: &seen) else {
            made = false
            break
          }
          payload[member.name] = value
        }
        if made { return .object(JSONObject([(known.name, .object(payload))])) }
      }
      return nil
    case .structure(let members)?:
      var object = JSONObject()
      for member in members where !member.isOptional {
        guard let value = placeholder(of: member.type, ordinal: 0, seen: &seen) else {
          return nil
        }
        object[member.name] = value
      }
      return .object(object)
    case .literal(.integer)?:
      return .integer(Int64(ordinal))
    case .literal(.string)?:
      return ordinal == 0 ? Redaction.placeholder : .string("<redacted \(ordinal)>")
    case nil:
      // Standard collections the schema need not describe.
      if Self.collectionElement(of: type) != nil { return .array([]) }
      if Self.dictionaryValue(of: type) != nil { return .object(JSONObject()) }
      return nil
    }
  }

  /// The element type of a standard collection, read from its name: `Swift.Set<Swift.String>`.
  static func collectionElement(of type: String) -> String? {
    for prefix in ["Swift.Array<", "Swift.Set<", "Swift.ContiguousArray<"]
    where type.hasPrefix(prefix) && type.hasSuffix(">") {
      return String(type.dropFirst(prefix.count).dropLast())
    }
    return nil
  }

  /// The value type of a dictionary keyed by strings, read from its name.
  static func dictionaryValue(of type: String) -> String? {
    let prefix = "Swift.Dictionary<Swift.String, "
    guard type.hasPrefix(prefix), type.hasSuffix(">") else { return nil }
    return String(type.dropFirst(prefix.count).dropLast())
  }
}
