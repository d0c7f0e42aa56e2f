import TraceJSON

/// Writes the short readable label of an encoded action: `.todo(id: 3F2A…9B1C, action: .checkboxTapped)`.
///
/// Swift's synthesized `Codable` encodes an enum case as a one-member object named after the
/// case, holding its associated values (`_0`, `_1`… when unlabelled). The label reverses that
/// shape and shortens long values so a log line stays readable.
enum ActionLabel {
  static func make(from action: JSONValue) -> String {
    if case let .object(object) = action, object.count == 1, let (name, payload) = object.first {
      return "." + enumCase(name: name, payload: payload, depth: 0)
    }
    return value(action, depth: 0)
  }

  private static func enumCase(name: String, payload: JSONValue, depth: Int) -> String {
    guard case let .object(arguments) = payload, !arguments.isEmpty else { return name }
    let list = arguments.map { key, argument in
      let text = value(argument, depth: depth + 1)
      return key.hasPrefix("_") && Int(key.dropFirst()) != nil ? text : "\(key): \(text)"
    }
    return "\(name)(\(list.joined(separator: ", ")))"
  }

  private static func value(_ value: JSONValue, depth: Int) -> String {
    switch value {
    case .null: return "nil"
    case let .bool(bool): return "\(bool)"
    case let .integer(int): return "\(int)"
    case let .unsignedInteger(int): return "\(int)"
    case let .double(double): return "\(double)"
    case let .string(string): return quoted(string)
    case let .array(elements):
      if elements.isEmpty { return "[]" }
      if let short = shortList(elements, depth: depth) { return short }
      return depth > 1 ? "[…]" : "[\(elements.count) items]"
    case let .object(object):
      if let shorthand = architectureValue(object, depth: depth) { return shorthand }
      // A one-member object whose member is an object is a nested enum case.
      if object.count == 1, let (name, payload) = object.first, case .object = payload {
        return depth > 3 ? ".\(name)(…)" : "." + enumCase(name: name, payload: payload, depth: depth)
      }
      return object.isEmpty ? "{}" : shortStruct(object, depth: depth) ?? "{…}"
    }
  }

  /// How wide a struct or list may be before the label says `{…}` or `[n items]`: enough for
  /// the clue (`{indexes: [1]}`, `{title: "Milk", quantity: 2}`), not for a whole state.
  static let payloadWidth = 40

  /// A struct written in full, `{name: value, …}`, when it fits ``payloadWidth``.
  private static func shortStruct(_ object: JSONObject, depth: Int) -> String? {
    guard depth <= 3, object.count <= 4 else { return nil }
    var text = "{"
    for (position, (key, member)) in object.enumerated() {
      if position > 0 { text += ", " }
      text += "\(key): \(value(member, depth: depth + 1))"
      if text.count > payloadWidth { return nil }
    }
    return text + "}"
  }

  /// A list of a few scalars written in full, `[1, 4]`, when it fits half of ``payloadWidth``.
  private static func shortList(_ elements: [JSONValue], depth: Int) -> String? {
    guard elements.count <= 8 else { return nil }
    var parts: [String] = []
    for element in elements {
      switch element {
      case .array, .object: return nil
      default: parts.append(value(element, depth: depth + 1))
      }
    }
    let text = "[" + parts.joined(separator: ", ") + "]"
    return text.count <= payloadWidth / 2 ? text : nil
  }

  /// The shapes `Architecture`'s own types encode as, told by their keys: a binding,
  /// `{"set":{"keyPath":"$name","value":…}}`, reads `.set(\.$name, …)` at any depth, since the
  /// field is the clue; a task result reads `.success(…)` or `.failure(ErrorType)`.
  private static func architectureValue(_ object: JSONObject, depth: Int) -> String? {
    guard object.count == 1, let (name, payload) = object.first else { return nil }
    switch name {
    case "set":
      guard case let .object(fields) = payload, fields.count == 2,
        case let .string(keyPath)? = fields["keyPath"], let value = fields["value"],
        TypeName.isBindingKeyPath(keyPath)
      else { return nil }
      return ".set(\\.\(keyPath), \(self.value(value, depth: max(depth, 2))))"
    case "success":
      if case .object = payload { return nil }
      return ".success(\(value(payload, depth: depth + 1)))"
    case "failure":
      guard case let .object(fields) = payload, case let .string(type)? = fields["type"],
        fields["description"] != nil
      else { return nil }
      return ".failure(\(type))"
    default:
      return nil
    }
  }

  private static func quoted(_ string: String) -> String {
    if string.utf8.count == 36, string.utf8.filter({ $0 == UInt8(ascii: "-") }).count == 4 {
      // A UUID: its ends tell ids apart, random or counted, without filling the line.
      return String(string.prefix(4)) + "…" + String(string.suffix(4))
    }
    if string.count > 24 { return "\"\(string.prefix(21))…\"" }
    return "\"\(string)\""
  }
}
