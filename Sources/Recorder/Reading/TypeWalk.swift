import TraceJSON

/// Where a path has got to in a state's types, one component at a time: what ``SwiftValue``,
/// ``StateChange`` and ``StateSearch`` need to show values and paths as Swift.
package enum TypeWalk: Equatable, Sendable {
  /// A value of this type (optionals unwrapped when it is looked into).
  case type(String)
  /// The payload of an enum case, member by member.
  case payload([TypeSchema.Member])
  /// The types cannot tell.
  case unknown

  /// The Swift type here, if known.
  package var type: String? {
    if case .type(let name) = self { name } else { nil }
  }

  /// Where one more component leads.
  package func step(_ component: StatePath.Component, schema: TypeSchema) -> TypeWalk {
    switch self {
    case .unknown:
      return .unknown
    case .payload(let members):
      guard case .token(let token) = component,
        let member = members.first(where: { $0.name == token })
      else { return .unknown }
      return .type(member.type)
    case .type(let name):
      let type = TypeName.unwrappingValue(name)
      if let (_, value) = TypeName.dictionaryArguments(of: type) {
        // A position in a flat array of keys and values names no value of the dictionary.
        if case .token(let token) = component, !Self.isKeyedByName(type),
          JSONPointer.arrayIndex(token) != nil
        {
          return .unknown
        }
        return .type(value)
      }
      if TypeName.shortName(type) == "Set", case .token = component {
        return TypeName.genericArgument(of: type).map(TypeWalk.type) ?? .unknown
      }
      switch (schema.description(of: type), component) {
      case (.structure(let members)?, .token(let token)):
        return members.first { $0.name == token }.map { .type($0.type) } ?? .unknown
      case (.enumeration(let cases)?, .token(let token)):
        return cases.first { $0.name == token }.map { .payload($0.payload) } ?? .unknown
      case (.collection(let element)?, .token), (.collection(let element)?, .element):
        return .type(element)
      case (.dictionary(let value)?, .token), (.dictionary(let value)?, .key):
        return .type(value)
      default:
        return .unknown
      }
    }
  }

  /// The type at `pointer`, and the outermost value on the way that is shown whole, if any
  /// (the pointer goes inside it).
  package static func walk(_ pointer: JSONPointer, root: String?, schema: TypeSchema)
    -> (TypeWalk, whole: (JSONPointer, String)?)
  {
    guard let root else { return (.unknown, nil) }
    var walk = TypeWalk.type(root)
    for (position, token) in pointer.tokens.enumerated() {
      if let type = walk.type {
        // An enum that changed case: its old case removed and its new one added, one level in.
        let changesCase =
          position == pointer.tokens.count - 1
          && {
            if case .enumeration? = schema.description(of: TypeName.unwrappingValue(type)) {
              return true
            }
            return false
          }()
        if TypeWalk.isShownWhole(type) || changesCase {
          return (walk, (JSONPointer(tokens: Array(pointer.tokens[..<position])), type))
        }
      }
      walk = walk.step(.token(token), schema: schema)
    }
    return (walk, nil)
  }

  /// Whether a dictionary of this type is keyed by name in its encoding and in paths: its keys
  /// are strings. Any other dictionary is shown and followed by `[key=…]`.
  package static func isKeyedByName(_ dictionaryType: String) -> Bool {
    guard let key = TypeName.dictionaryArguments(of: dictionaryType)?.key else { return true }
    return TypeName.shortName(key) == "String"
  }

  /// Whether a value of this type is shown whole, and a change inside it as the whole value
  /// before and after: its encoding's parts are not what a Swift developer sees in it.
  package static func isShownWhole(_ type: String) -> Bool {
    let type = TypeName.unwrappingValue(type)
    switch TypeName.shortName(type) {
    case "Duration", "Set", "Data", "Date", "URL", "IndexSet": return true
    case "Dictionary": return !isKeyedByName(type)
    default: return false
    }
  }
}

extension TypeSchema {
  /// The type of the value at `path` in a value of `root`, if the schema knows.
  package func valueType(at path: StatePath, in root: String) -> String? {
    var walk = TypeWalk.type(root)
    for component in path.components { walk = walk.step(component, schema: self) }
    return walk.type
  }
}

extension TypeSchema {
  /// `pointer` into `document`, a value of `root`, as the path that follows what it points at:
  /// dictionary values by key (`[key=13]`) and array elements that have ids by id (`[id=3]`).
  package func path(following pointer: JSONPointer, in document: JSONValue, root: String)
    -> StatePath
  {
    var components: [StatePath.Component] = []
    var walk = TypeWalk.type(root)
    var current: JSONValue? = document
    for token in pointer.tokens {
      var component = StatePath.Component.token(token)
      if let type = walk.type.map(TypeName.unwrappingValue),
        TypeName.shortName(type) == "Dictionary", !TypeWalk.isKeyedByName(type),
        let keyType = TypeName.dictionaryArguments(of: type)?.key
      {
        switch current {
        case .object?:
          let key = TypeName.isInteger(keyType) ? Int64(token).map(JSONValue.integer) : nil
          component = .key(StatePath.selector(for: key ?? .string(token)))
        case .array(let flat)?:
          if let index = JSONPointer.arrayIndex(token), index % 2 == 1, index < flat.count {
            component = .key(StatePath.selector(for: flat[index - 1]))
          }
        default:
          break
        }
      } else if let current {
        component =
          StatePath(identifying: JSONPointer(tokens: [token]), in: current).components.first
          ?? component
      }
      walk = walk.step(component, schema: self)
      current = current.flatMap { JSONPointer(tokens: [token]).resolve(in: $0) }
      components.append(component)
    }
    return StatePath(components: components)
  }
}
