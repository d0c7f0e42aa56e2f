import TraceJSON

/// What a state path names in a state, told apart by the trace's ``TypeSchema``: a value, a
/// `nil` (absent or `null`), or a path that no value of the state's type can have.
///
/// The recorder writes a `nil` optional as an absent member, so an absent member is a value,
/// `nil`, when the type declares it, and a mistake when it does not:
///
/// ```swift
/// let lookup = StateLookup(path, in: state, type: header.stateType, schema: schema)
/// // .value(…), .absent(checked: true) for a nil coupon,
/// // .impossible("no member 'cuopon' in Shop.State; members: …; did you mean 'coupon'?")
/// ```
package enum StateLookup: Equatable, Sendable {
  /// The value at the path; never `null`.
  case value(JSONValue)
  /// `nil`: the path is absent or `null`. `checked` says whether the schema (or the value
  /// itself) showed that the path can exist; `false` when neither could tell.
  case absent(checked: Bool)
  /// The type cannot have a value at the path; the message says why, in one line.
  case impossible(String)

  /// Looks `path` up in `state`, a value of `type`, checking what is absent against `schema`.
  package init(_ path: StatePath, in state: JSONValue, type: String, schema: TypeSchema) {
    var value: JSONValue? = state
    var place = Place.type(type)
    var checked = true
    for (position, component) in path.components.enumerated() {
      let next = value.flatMap { Self.step(component, in: $0) }
      switch place.step(component, schema: schema) {
      case .place(let inner):
        place = inner
      case .impossible(let message) where next == nil:
        let shown = StatePath(components: Array(path.components[...position]))
        self = .impossible("'\(shown)': \(message)")
        return
      case .impossible:
        // The value holds what the schema has not learnt: the value wins.
        place = .unknown
      }
      // An absent value where the schema cannot tell: it may be a nil, or a mistake.
      if next == nil, case .unknown = place { checked = false }
      value = next
    }
    switch value {
    case nil: self = .absent(checked: checked)
    case .null?: self = .absent(checked: true)
    case let found?: self = .value(found)
    }
  }

  private static func step(_ component: StatePath.Component, in value: JSONValue) -> JSONValue? {
    if value == .null { return nil }
    return StatePath(components: [component]).resolve(in: value)
  }
}

/// Where a path has got to in the schema.
private enum Place {
  /// A value of this type (optionals unwrapped when it is looked into).
  case type(String)
  /// The payload of an enum case, member by member.
  case payload(owner: String, name: String, members: [TypeSchema.Member])
  /// The schema cannot tell.
  case unknown

  func step(_ component: StatePath.Component, schema: TypeSchema) -> Outcome {
    switch self {
    case .unknown:
      return .place(.unknown)
    case let .payload(owner, name, members):
      guard case .token(let token) = component else {
        return .impossible("case \(short(owner)).\(name) holds no array or dictionary")
      }
      guard let member = members.first(where: { $0.name == token }) else {
        let names = members.map(\.name)
        return .impossible(
          Suggestion.message(
            "no value '\(token)' in case \(short(owner)).\(name); values: \(list(names))",
            for: token, in: names))
      }
      return .place(.type(member.type))
    case let .type(name):
      let type = TypeName.unwrappingValue(name)
      if case .key = component {
        // The type's name says what a key leads to, in either of a dictionary's encodings.
        if let (_, value) = TypeName.dictionaryArguments(of: type) { return .place(.type(value)) }
        if schema.description(of: type) == nil, !Self.scalars.contains(type) {
          return .place(.unknown)
        }
        return .impossible("\(short(type)) is not a dictionary")
      }
      switch (schema.description(of: type), component) {
      case let (.structure(members)?, .token(token)):
        guard let member = members.first(where: { $0.name == token }) else {
          let names = members.map(\.name)
          return .impossible(
            Suggestion.message(
              "no member '\(token)' in \(short(type)); members: \(list(names))", for: token,
              in: names))
        }
        return .place(.type(member.type))
      case (.structure?, .element):
        return .impossible("\(short(type)) is a struct, not an array")
      case let (.enumeration(cases)?, .token(token)):
        guard let found = cases.first(where: { $0.name == token }) else {
          let names = cases.map(\.name)
          return .impossible(
            Suggestion.message(
              "no case '\(token)' in \(short(type)); cases: \(list(names))", for: token, in: names))
        }
        return .place(.payload(owner: type, name: found.name, members: found.payload))
      case (.enumeration?, .element):
        return .impossible("\(short(type)) is an enum, not an array")
      case (.literal?, _):
        return .impossible("\(short(type)) has nothing inside it")
      case (.rawEnumeration?, _):
        return .impossible("\(short(type)) is an enum with raw values: nothing is inside it")
      case let (.collection(element)?, .token(token)):
        guard JSONPointer.arrayIndex(token) != nil else {
          return .impossible("\(short(type)) is an array: '\(token)' is no position in it")
        }
        return .place(.type(element))
      case let (.collection(element)?, .element):
        return .place(.type(element))
      case let (.dictionary(value)?, .token):
        return .place(.type(value))
      case (.dictionary?, .element):
        return .impossible("\(short(type)) is a dictionary, not an array")
      case (_, .key):
        return .place(.unknown)
      case (nil, _):
        if Self.scalars.contains(type) {
          return .impossible("\(short(type)) has nothing inside it")
        }
        return .place(.unknown)
      }
    }
  }

  /// Where one more component leads.
  enum Outcome {
    case place(Place)
    case impossible(String)
  }

  /// Types that encode as one JSON scalar.
  static let scalars: Set<String> = [
    "Swift.Bool", "Swift.String", "Swift.Double", "Swift.Float", "Swift.Int", "Swift.Int8",
    "Swift.Int16", "Swift.Int32", "Swift.Int64", "Swift.UInt", "Swift.UInt8", "Swift.UInt16",
    "Swift.UInt32", "Swift.UInt64", "Foundation.UUID", "FoundationEssentials.UUID",
    "Foundation.Date", "FoundationEssentials.Date", "Foundation.URL", "FoundationEssentials.URL",
  ]
}

private func short(_ type: String) -> String { TypeName.displayName(type) }

private func list(_ names: [String]) -> String {
  names.isEmpty ? "none" : names.joined(separator: ", ")
}
