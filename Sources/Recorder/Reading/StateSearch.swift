import TraceJSON

/// Where a value or text is in a state, and how that changes from one state to the next.
///
/// A value matches when it is a string containing the query, ignoring case, or a number,
/// boolean or null whose JSON text is the query. Matches are named by ``StatePath``, with
/// elements that have an `"id"` named by id, so a todo that moves is the same match.
///
/// ```swift
/// var search = StateSearch(query: "milk")
/// let first = search.start(with: initialState)         // appearances in the initial state
/// let events = search.advance(from: old, to: new, touching: step.patch)
/// ```
package struct StateSearch {
  /// What happened to one match between two states.
  package enum Event: Equatable, Sendable {
    case appears(path: StatePath, value: JSONValue)
    case changes(path: StatePath, from: JSONValue, to: JSONValue)
    case disappears(path: StatePath, value: JSONValue)

    /// The path of the value the event is about.
    package var path: StatePath {
      switch self {
      case .appears(let path, _), .changes(let path, _, _), .disappears(let path, _): path
      }
    }
  }

  /// The text searched for, as given.
  package let query: String
  private let folded: String
  /// The states' type and what the trace says of types: dictionaries whose keys are not
  /// strings are searched entry by entry and named by key (`/quantities[key=13]`).
  package let type: String?
  /// What the trace has said of its types so far; a reader adds each step's `types`.
  package var schema: TypeSchema

  /// A search for `query` in states of `type`, described by `schema`.
  package init(query: String, type: String? = nil, schema: TypeSchema = TypeSchema()) {
    self.query = query
    folded = query.lowercased()
    self.type = type
    self.schema = schema
  }

  /// Whether `value`, a scalar, matches the query.
  package func matches(_ value: JSONValue) -> Bool {
    switch value {
    case .string(let string): string.lowercased().contains(folded)
    case .array, .object: false
    default: value.jsonString == query
    }
  }

  /// Every match in `state`, as appearances.
  package func start(with state: JSONValue) -> [Event] {
    var found: [(String, StatePath, JSONValue)] = []
    collect(state, path: StatePath(), walk: walk, into: &found)
    return found.map { .appears(path: $0.1, value: $0.2) }
  }

  /// What changed among the matches when `patch` took `old` to `new`.
  ///
  /// Only the top-level members the patch touches are searched again, whole, so that an insert
  /// or a move inside a list is seen as the same elements in new places.
  package func advance(from old: JSONValue, to new: JSONValue, touching patch: JSONPatch)
    -> [Event]
  {
    var roots: [String] = []
    var wholeState = false
    for operation in patch.operations {
      for pointer in [operation.path, operation.from].compactMap({ $0 }) {
        guard let first = pointer.tokens.first else {
          wholeState = true
          continue
        }
        if !roots.contains(first) { roots.append(first) }
      }
    }
    var before: [(String, StatePath, JSONValue)] = []
    var after: [(String, StatePath, JSONValue)] = []
    if wholeState || !(old.isObject && new.isObject) {
      collect(old, path: StatePath(), walk: walk, into: &before)
      collect(new, path: StatePath(), walk: walk, into: &after)
    } else {
      for root in roots {
        let path = StatePath(components: [.token(root)])
        let inner = walk.step(.token(root), schema: schema)
        if let value = path.resolve(in: old) {
          collect(value, path: path, walk: inner, into: &before)
        }
        if let value = path.resolve(in: new) {
          collect(value, path: path, walk: inner, into: &after)
        }
      }
    }
    var events = Self.compare(before, after)
    // A hidden value changed in place reads the same before and after: the patch says it.
    if matches(Redaction.placeholder) {
      for pointer in StateChange.redactedChanges(in: patch) {
        let path = StatePath(pointer)
        guard !events.contains(where: { $0.path == path }) else { continue }
        events.append(.changes(path: path, from: Redaction.placeholder, to: Redaction.placeholder))
      }
    }
    return events
  }

  private static func compare(
    _ before: [(String, StatePath, JSONValue)], _ after: [(String, StatePath, JSONValue)]
  ) -> [Event] {
    var old: [String: JSONValue] = [:]
    for (key, _, value) in before { old[key] = value }
    var events: [Event] = []
    var seen: Set<String> = []
    for (key, path, value) in after {
      seen.insert(key)
      switch old[key] {
      case nil: events.append(.appears(path: path, value: value))
      case let previous? where previous != value:
        events.append(.changes(path: path, from: previous, to: value))
      default: break
      }
    }
    for (key, path, value) in before where !seen.contains(key) {
      events.append(.disappears(path: path, value: value))
    }
    return events
  }

  private var walk: TypeWalk { type.map(TypeWalk.type) ?? .unknown }

  private func collect(
    _ value: JSONValue, path: StatePath, walk: TypeWalk,
    into found: inout [(String, StatePath, JSONValue)]
  ) {
    if let type = walk.type.map(TypeName.unwrappingValue), TypeWalk.isShownWhole(type) {
      // A dictionary keyed by other than strings: its values, each by key. A `Duration`'s two
      // integers hold nothing a person searches for.
      if TypeName.shortName(type) == "Duration" { return }
      if let (keyType, valueType) = TypeName.dictionaryArguments(of: type),
        let entries = SwiftValueScalars.entries(value, keyType: keyType)
      {
        for (key, member) in entries {
          var inner = path
          inner.components.append(.key(StatePath.selector(for: key)))
          collect(member, path: inner, walk: .type(valueType), into: &found)
        }
        return
      }
    }
    switch value {
    case .object(let object):
      for (key, member) in object {
        var inner = path
        inner.components.append(.token(key))
        collect(member, path: inner, walk: walk.step(.token(key), schema: schema), into: &found)
      }
    case .array(let elements):
      let ids = elements.map(StatePath.id(of:))
      let unique = Set(ids.compactMap { $0 }).count == elements.count
      for (index, element) in elements.enumerated() {
        var inner = path
        if unique, ids[index] != nil {
          inner = StatePath(identifying: JSONPointer(tokens: [String(index)]), in: value)
            .prefixed(by: path)
        } else {
          inner.components.append(.token(String(index)))
        }
        collect(
          element, path: inner, walk: walk.step(.token(String(index)), schema: schema),
          into: &found)
      }
    default:
      if matches(value) { found.append((path.description, path, value)) }
    }
  }
}

extension StatePath {
  /// This path, placed under `prefix`.
  func prefixed(by prefix: StatePath) -> StatePath {
    StatePath(components: prefix.components + components)
  }
}

extension JSONValue {
  fileprivate var isObject: Bool {
    if case .object = self { true } else { false }
  }
}
