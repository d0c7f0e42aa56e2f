import TraceJSON

extension SwiftRenderer {
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
