import TraceJSON

/// Writes the short readable label of an encoded action: `.todo(id: 3F2A…9B1C, action: .checkboxTapped)`.
///
/// Swift's synthesized `Codable` encodes an enum case as a one-member object named after the
/// case, holding its associated values (`_0`, `_1`… when unlabelled). The label reverses that
/// shape and shortens long values so a log line stays readable.
///
/// Given the action's type and the types learned so far, a raw-valued enum reads by its case
/// (`.set(\.$filter, .completed)`, not `"Completed"`), as ``SwiftValue`` writes it.
enum ActionLabel {
  static func make(
    from action: JSONValue, type: String? = nil, schema: TypeSchema = TypeSchema()
  ) -> String {
    let types = Types(schema: schema)
    if case let .object(object) = action, object.count == 1, let (name, payload) = object.first {
      return "." + enumCase(name: name, payload: payload, depth: 0, type: type, types: types)
    }
    return value(action, depth: 0, type: type, types: types)
  }

  /// The types a label reads values by; `nil` types are unknown.
  private struct Types {
    let schema: TypeSchema

    /// The type of payload value `label` of case `name` of the enum `type`.
    func payload(_ label: String, ofCase name: String, in type: String?) -> String? {
      guard let type, case .enumeration(let cases)? = schema.description(
        of: TypeName.unwrappingValue(type))
      else { return nil }
      return cases.first { $0.name == name }?.payload.first { $0.name == label }?.type
    }

    /// The case name of a raw value of `type`, if it is a raw-valued enum the schema knows.
    func rawCase(_ json: JSONValue, type: String?) -> String? {
      switch json {
      case .string, .integer, .unsignedInteger, .double, .bool: break
      default: return nil  // Raw values are scalars.
      }
      guard let type, case .rawEnumeration(let cases)? = schema.description(
        of: TypeName.unwrappingValue(type))
      else { return nil }
      let raw = json.jsonString
      return cases.first { $0.raw == raw }?.name
    }

    /// A `Duration` or a `Date` as ``PrintedForm`` writes it, so that the label reads back.
    func printedScalar(_ json: JSONValue, type: String?) -> String? {
      guard let type else { return nil }
      switch TypeName.shortName(TypeName.unwrappingValue(type)) {
      case "Duration": return PrintedForm.duration(json)
      case "Date": return json.doubleValue.map(PrintedForm.date)
      default: return nil
      }
    }
  }

  private static func enumCase(
    name: String, payload: JSONValue, depth: Int, type: String?, types: Types
  ) -> String {
    guard case let .object(arguments) = payload, !arguments.isEmpty else { return name }
    let list = arguments.map { key, argument in
      let text = value(
        argument, depth: depth + 1, type: types.payload(key, ofCase: name, in: type),
        types: types)
      return key.hasPrefix("_") && Int(key.dropFirst()) != nil ? text : "\(key): \(text)"
    }
    return "\(name)(\(list.joined(separator: ", ")))"
  }

  private static func value(
    _ value: JSONValue, depth: Int, type: String? = nil, types: Types
  ) -> String {
    if let name = types.rawCase(value, type: type) { return "." + name }
    if let scalar = types.printedScalar(value, type: type) { return scalar }
    switch value {
    case .null: return "nil"
    case let .bool(bool): return "\(bool)"
    case let .integer(int): return "\(int)"
    case let .unsignedInteger(int): return "\(int)"
    case let .double(double): return "\(double)"
    case let .string(string): return quoted(string)
    case let .array(elements):
      if elements.isEmpty { return "[]" }
      if let short = shortList(elements, depth: depth, types: types) { return short }
      return depth > 1 ? "[…]" : "[\(elements.count) items]"
    case let .object(object):
      if let shorthand = architectureValue(object, depth: depth, type: type, types: types) {
        return shorthand
      }
      // A one-member object whose member is an object is a nested enum case.
      if object.count == 1, let (name, payload) = object.first, case .object = payload {
        // A case without payload is whole at any depth: `.submitButtonTapped`, never `(…)`.
        let isEmpty = payload.objectValue?.isEmpty == true
        return depth > 3 && !isEmpty
          ? ".\(name)(…)"
          : "." + enumCase(name: name, payload: payload, depth: depth, type: type, types: types)
      }
      if object.isEmpty, let type = type.map(TypeName.unwrappingValue),
        TypeName.shortName(type) != "Dictionary"
      {
        return TypeName.displayName(type) + "()"  // A struct without stored properties.
      }
      return object.isEmpty ? "{}" : shortStruct(object, depth: depth, types: types) ?? "{…}"
    }
  }

  /// How wide a struct or list may be before the label says `{…}` or `[n items]`: enough for
  /// the clue (`{indexes: [1]}`, `{title: "Milk", quantity: 2}`), not for a whole state.
  static let payloadWidth = 40

  /// A struct written in full, `{name: value, …}`, when it fits ``payloadWidth``.
  private static func shortStruct(_ object: JSONObject, depth: Int, types: Types) -> String? {
    guard depth <= 3, object.count <= 4 else { return nil }
    var text = "{"
    for (position, (key, member)) in object.enumerated() {
      if position > 0 { text += ", " }
      text += "\(key): \(value(member, depth: depth + 1, types: types))"
      if text.count > payloadWidth { return nil }
    }
    return text + "}"
  }

  /// A list of a few scalars written in full, `[1, 4]`, when it fits half of ``payloadWidth``.
  private static func shortList(_ elements: [JSONValue], depth: Int, types: Types) -> String? {
    guard elements.count <= 8 else { return nil }
    var parts: [String] = []
    for element in elements {
      switch element {
      case .array, .object: return nil
      default: parts.append(value(element, depth: depth + 1, types: types))
      }
    }
    let text = "[" + parts.joined(separator: ", ") + "]"
    return text.count <= payloadWidth / 2 ? text : nil
  }

  /// The shapes `Architecture`'s own types encode as, told by their keys: a binding,
  /// `{"set":{"keyPath":"$name","value":…}}`, reads `.set(\.$name, …)` at any depth, since the
  /// field is the clue; a task result reads `.success(…)` or `.failure(ErrorType)`.
  private static func architectureValue(
    _ object: JSONObject, depth: Int, type: String?, types: Types
  ) -> String? {
    guard object.count == 1, let (name, payload) = object.first else { return nil }
    switch name {
    case "indexes":
      return indexSet(payload)
    case "set":
      guard case let .object(fields) = payload, fields.count == 2,
        case let .string(keyPath)? = fields["keyPath"], let value = fields["value"],
        TypeName.isBindingKeyPath(keyPath)
      else { return nil }
      // The value's type is the `@BindingState` member's, when the action's type is known.
      let root = type.map(TypeName.unwrappingValue).flatMap { type in
        TypeName.isArchitectureGeneric(type, named: "BindingAction")
          ? TypeName.genericArgument(of: type) : nil
      }
      let valueType = root.flatMap { types.schema.bindingValueType(keyPath, in: $0) }
      let text = self.value(value, depth: max(depth, 2), type: valueType, types: types)
      return ".set(\\.\(keyPath), \(text))"
    case "success":
      if case .object = payload { return nil }
      return ".success(\(value(payload, depth: depth + 1, types: types)))"
    case "failure":
      guard case let .object(fields) = payload, case let .string(type)? = fields["type"],
        fields["description"] != nil
      else { return nil }
      return ".failure(\(type))"
    default:
      return nil
    }
  }

  /// Foundation's `IndexSet` encoding, `{"indexes":[{"location":0,"length":2}]}`, as
  /// `IndexSet([0, 1])` when it lists few indexes.
  private static func indexSet(_ payload: JSONValue) -> String? {
    guard case let .array(ranges) = payload else { return nil }
    var indexes: [Int64] = []
    for range in ranges {
      guard case let .object(fields) = range, fields.count == 2,
        let location = fields["location"]?.int64Value, let length = fields["length"]?.int64Value,
        length >= 0, indexes.count + Int(clamping: length) <= 8
      else { return nil }
      indexes += (0..<length).map { location + $0 }
    }
    return "IndexSet([" + indexes.map(String.init).joined(separator: ", ") + "])"
  }

  private static func quoted(_ string: String) -> String {
    if PrintedForm.isUUIDText(string) {
      // A UUID: its ends tell ids apart, random or counted, without filling the line.
      return PrintedForm.uuidLabel(string)
    }
    // Escaped as `SwiftValue` writes a string, so that the label reads back.
    if string.count > 24 { return escaped(String(string.prefix(21)) + "…") }
    return escaped(string)
  }

  private static func escaped(_ string: String) -> String {
    let needsEscapes = string.utf8.contains {
      $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
    }
    guard needsEscapes else { return "\"" + string + "\"" }
    return JSONValue.string(string).jsonString
  }
}
