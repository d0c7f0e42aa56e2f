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
      return elements.isEmpty ? "[]" : depth > 1 ? "[…]" : "[\(elements.count) items]"
    case let .object(object):
      // A one-member object whose member is an object is a nested enum case.
      if object.count == 1, let (name, payload) = object.first, case .object = payload {
        return depth > 3 ? ".\(name)(…)" : "." + enumCase(name: name, payload: payload, depth: depth)
      }
      return object.isEmpty ? "{}" : "{…}"
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
