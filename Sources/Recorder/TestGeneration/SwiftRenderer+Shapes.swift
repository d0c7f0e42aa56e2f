import TraceJSON

extension SwiftRenderer {
  /// Values whose encoding is not their Swift shape, written as Swift: a `Duration` (encoded as
  /// two integers of attoseconds), `Data` (base64), a dictionary whose keys are not strings
  /// (an object with integer keys, or a flat array of keys and values).
  mutating func standardValue(_ json: JSONValue, type: String, indent: Int) -> String? {
    switch TypeName.shortName(type) {
    case "Duration":
      return duration(json)
    case "Data":
      return json.stringValue.map { "Data(base64Encoded: \(stringLiteral($0)))!" }
    case "Dictionary":
      guard let (key, value) = TypeName.dictionaryArguments(of: type) else { return nil }
      var pairs: [(JSONValue, JSONValue)] = []
      if let object = json.objectValue {
        guard TypeName.isInteger(key) else { return nil }
        for (name, element) in object {
          guard let number = Int64(name) else { return nil }
          pairs.append((.integer(number), element))
        }
      } else if let flat = json.arrayValue, flat.count % 2 == 0 {
        pairs = stride(from: 0, to: flat.count, by: 2).map { (flat[$0], flat[$0 + 1]) }
      } else {
        return nil
      }
      if pairs.isEmpty { return "[:]" }
      let entries = pairs.map {
        expression($0.0, type: key, indent: indent + 1) + ": "
          + expression($0.1, type: value, indent: indent + 1)
      }
      let single = "[" + entries.joined(separator: ", ") + "]"
      if single.count <= 70, !single.contains("\n") { return single }
      let pad = String(repeating: "  ", count: indent + 1)
      return "[\n" + entries.map { pad + $0 + ",\n" }.joined()
        + String(repeating: "  ", count: indent) + "]"
    default:
      return nil
    }
  }

  /// `.seconds(3)`, `.milliseconds(1500)`…: the largest unit that says it exactly.
  private func duration(_ json: JSONValue) -> String? {
    guard let attoseconds = PrintedForm.attoseconds(json) else { return nil }
    for (unit, size) in PrintedForm.durationUnits where attoseconds % size == 0 {
      let count = attoseconds / size
      guard let exact = Int64(exactly: count) else { continue }
      return ".\(unit)(\(exact))"
    }
    let seconds = attoseconds / 1_000_000_000_000_000_000
    let rest = attoseconds % 1_000_000_000_000_000_000
    return "Duration(secondsComponent: \(seconds), attosecondsComponent: \(rest))"
  }

  /// Whether `json`, a value of `type`, holds only what defaults usually are: `nil`, `false`,
  /// `0`, empty strings and collections, a zero `Duration`, an enum case without payload, and
  /// structs of those.
  func looksDefault(_ json: JSONValue, type: String?) -> Bool {
    let type = type.map(TypeName.unwrappingOptional)
    switch json {
    case .null, .bool(false), .integer(0), .unsignedInteger(0), .string(""): return true
    case .double(let value): return value == 0
    default: break
    }
    if let type, TypeName.shortName(type) == "Duration" {
      return json == [.integer(0), .integer(0)]
    }
    switch (type.flatMap(schema.description(of:)), json) {
    case (_, .array(let elements)): return elements.isEmpty
    case (.rawEnumeration?, _): return true
    case (.enumeration?, .object(let object)):
      return object.count == 1 && object[0].value.objectValue?.isEmpty == true
    case (.structure(let members)?, .object(let object)):
      return object.allSatisfy { key, value in
        members.first { $0.name == key }.map { looksDefault(value, type: $0.type) } ?? false
      }
    case (_, .object(let object)): return object.isEmpty
    default: return false
    }
  }

  /// Whether a value of this type must be assigned whole: its encoding has no Swift l-values
  /// inside (a set is unordered, a `Duration` or `Data` is one value, a dictionary with
  /// non-string keys is encoded as a flat array).
  static func isAssignedWhole(_ type: String) -> Bool {
    let type = TypeName.unwrappingOptional(type)
    switch TypeName.shortName(type) {
    case "Set", "Duration", "Data":
      return true
    case "Dictionary":
      guard let key = TypeName.dictionaryArguments(of: type)?.key else { return true }
      return TypeName.shortName(key) != "String" && !TypeName.isInteger(key)
    default:
      return false
    }
  }
}
