import Architecture

/// Turns each new state into a patch against the previous one, with work that follows the size
/// of the change rather than the size of the state.
///
/// Small states are simply encoded whole and diffed. For large ones the differ walks the old
/// and new Swift values side by side: equal subtrees (`Equatable`, with an identity fast path
/// for collections that share storage) are skipped without encoding, identified arrays say
/// which chunks changed, and only the subtrees that differ are encoded and diffed. The walk
/// relies on synthesized `Codable` (a struct's members encoded under their property names); a
/// struct whose encoding does not match its stored properties is encoded whole instead. The
/// first walks are checked against a whole encoding, and any mismatch turns the walk off.
struct StateDiffer<State: Encodable> {
  /// The encoded, redacted previous state.
  private(set) var json: JSONValue
  private var value: State
  private let encoder = JSONValueEncoder()
  private let redactions: [Redaction]
  /// Roughly how many JSON values the state holds; small states are diffed whole.
  private var size: Int
  private var walksToVerify = 3
  private var canWalk = true
  private let types = WalkTypes()

  static var walkThreshold: Int { 256 }

  init(initialState: State, redactions: [Redaction]) throws {
    self.redactions = redactions
    self.value = initialState
    self.json = .null
    self.size = 0
    json = try encodeWhole(initialState)
    size = json.nodeCount
  }

  /// Moves to `state`, returning the patch from the previous state to it.
  mutating func advance(to state: State) throws -> JSONPatch {
    guard canWalk, size >= Self.walkThreshold else { return try advanceWhole(to: state) }
    var operations: [JSONPatch.Operation] = []
    try walk(old: value, new: state, oldJSON: json, path: JSONPointer.root, into: &operations)
    let patch = JSONPatch(operations)
    // The patch is applied to `json` in place: a copy would share its containers, and changing
    // one element would copy every element beside it. Only the first walks keep the old state,
    // to diff whole against if the walk turns out wrong.
    // (`if`, not `?:`: `nil` there would be read as the literal `JSONValue.null`.)
    var old: JSONValue?
    if walksToVerify > 0, !operations.isEmpty { old = json }
    do {
      try patch.apply(to: &json)
    } catch {
      // A walk whose patch does not fit the state it walked is a bug: stop walking, and
      // rebuild the previous state's JSON, which the failed patch may have partly changed.
      canWalk = false
      json = try old ?? encodeWhole(value)
      return try advanceWhole(to: state)
    }
    if let old {
      walksToVerify -= 1
      let whole = try encodeWhole(state)
      if !whole.isIdentical(to: json) {
        canWalk = false
        json = whole
        value = state
        return JSONPatch.diff(from: old, to: whole)
      }
    }
    value = state
    return patch
  }

  /// Re-encodes the state whole and checks the walked encoding against it: run at keyframes.
  mutating func verified() throws -> JSONValue {
    let whole = try encodeWhole(value)
    size = whole.nodeCount
    if !whole.isIdentical(to: json) { canWalk = false }
    return json
  }

  private mutating func advanceWhole(to state: State) throws -> JSONPatch {
    let new = try encodeWhole(state)
    let patch = JSONPatch.diff(from: json, to: new)
    json = new
    value = state
    size = new.nodeCount
    return patch
  }

  private func walk(
    old: Any, new: Any, oldJSON: JSONValue, path: JSONPointer,
    into operations: inout [JSONPatch.Operation]
  ) throws {
    let facts = types.facts(of: new)
    if facts.equal?(old, new) == true { return }

    if facts.isPositional,
      let newCollection = new as? any PositionallyDiffable,
      let oldCollection = old as? any PositionallyDiffable,
      let ranges = newCollection._positionsThatMayDiffer(fromAny: old),
      case .array(let oldElements) = oldJSON, oldElements.count == newCollection.count
    {
      for range in ranges {
        for position in range {
          let oldElement = oldCollection._element(at: position)
          let newElement = newCollection._element(at: position)
          // Most elements of a changed chunk are equal: compare before making their path.
          if types.facts(of: newElement).equal?(oldElement, newElement) == true { continue }
          try walk(
            old: oldElement,
            new: newElement,
            oldJSON: oldElements[position],
            path: path.appending(index: position),
            into: &operations
          )
        }
      }
      return
    }

    // A small value is encoded whole and diffed: taking it apart with mirrors cost several
    // thousand instructions per member, encoding it a few hundred per value, and the patch is
    // the same.
    if !oldJSON.holdsAtLeast(64) { return try replace() }

    if case .object(let oldObject) = oldJSON, type(of: old) == type(of: new) {
      let newMirror = Mirror(reflecting: new)
      if newMirror.displayStyle == .struct, newMirror.superclassMirror == nil {
        let oldChildren = Self.presentChildren(of: Mirror(reflecting: old), keys: oldObject)
        if let oldChildren, oldChildren.count == oldObject.count,
          oldChildren.allSatisfy({ oldObject.contains(key: $0.key) })
        {
          for child in newMirror.children {
            guard let label = child.label.map({ Self.key(for: $0, in: oldObject) }) else {
              return try replace()
            }
            let newChild = Self.unwrapped(child.value)
            switch (oldChildren[label], newChild) {
            case (nil, nil):
              continue
            case (nil, let newChild?):
              operations.append(
                .add(
                  path: path.appending(label),
                  value: try encode(newChild, at: path.appending(label))))
            case (_?, nil):
              operations.append(.test(path: path.appending(label), value: oldObject[label]!))
              operations.append(.remove(path: path.appending(label)))
            case (let oldChild?, let newChild?):
              try walk(
                old: oldChild, new: newChild, oldJSON: oldObject[label]!,
                path: path.appending(label), into: &operations
              )
            }
          }
          return
        }
      }
    }
    try replace()

    func replace() throws {
      let newJSON = try encode(new, at: path)
      for operation in JSONPatch.diff(from: oldJSON, to: newJSON).operations {
        operations.append(operation.prefixed(by: path))
      }
    }
  }

  /// The state encoded whole, redacted.
  private func encodeWhole(_ state: State) throws -> JSONValue {
    var json = try encoder.encode(state)
    Redaction.apply(redactions, to: &json, isState: true)
    return json
  }

  private func encode(_ value: Any, at path: JSONPointer) throws -> JSONValue {
    guard let encodable = value as? any Encodable else {
      throw StateDifferError.notEncodable(path: path.description)
    }
    var json = try encoder.encode(encodable)
    Redaction.apply(redactions, to: &json, at: path)
    return json
  }

  /// A struct's stored properties by name, without those that are `nil`; `nil` when a member
  /// has no name.
  private static func presentChildren(
    of mirror: Mirror, keys: JSONObject
  ) -> [String: Any]? {
    var children: [String: Any] = [:]
    for child in mirror.children {
      guard let label = child.label else { return nil }
      if let value = unwrapped(child.value) { children[key(for: label, in: keys)] = value }
    }
    return children
  }

  /// The key synthesized `Codable` gives a stored property: a property wrapper's storage,
  /// `_destination`, is encoded as `destination`.
  private static func key(for label: String, in object: JSONObject) -> String {
    guard label.hasPrefix("_"), !object.contains(key: label) else { return label }
    let wrapped = String(label.dropFirst())
    return object.contains(key: wrapped) ? wrapped : label
  }

  /// The value inside an optional, `nil` for `nil`, and any other value as it is.
  private static func unwrapped(_ value: Any) -> Any? {
    if let optional = value as? any OptionalProtocol { return optional.wrappedAny }
    return value
  }
}

enum StateDifferError: Error, CustomStringConvertible {
  case notEncodable(path: String)

  var description: String {
    switch self {
    case .notEncodable(let path): "the state value at \(path) is not Encodable"
    }
  }
}

private protocol OptionalProtocol {
  var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
  /// The wrapped value, itself unwrapped if it is an optional too; `nil` for `nil`.
  var wrappedAny: Any? {
    switch self {
    case .some(let wrapped): (wrapped as? any OptionalProtocol).map(\.wrappedAny) ?? wrapped
    case .none: nil
    }
  }
}

/// What the walk needs to know of a value's type, found once per type.
///
/// A cast to a protocol existential (`as? any Equatable`) cost about 1,400 instructions, and the
/// walk made several for every value it looked at; a cast to the concrete type is cheaper.
private final class WalkTypes {
  struct Facts {
    /// Compares two values, the first of this type: `nil` when the type is not `Equatable` or
    /// the second value is of another type.
    let equal: ((Any, Any) -> Bool?)?
    /// Whether the type can say which of its positions may have changed.
    let isPositional: Bool
  }

  private var known: [ObjectIdentifier: Facts] = [:]

  func facts(of value: Any) -> Facts {
    let type = Swift.type(of: value)
    if let facts = known[ObjectIdentifier(type)] { return facts }
    var equal: ((Any, Any) -> Bool?)?
    if let equatable = type as? any Equatable.Type { equal = equality(of: equatable) }
    let facts = Facts(equal: equal, isPositional: type is any PositionallyDiffable.Type)
    known[ObjectIdentifier(type)] = facts
    return facts
  }
}

private func equality<T: Equatable>(of _: T.Type) -> (Any, Any) -> Bool? {
  { lhs, rhs in
    guard let lhs = lhs as? T, let rhs = rhs as? T else { return nil }
    return lhs == rhs
  }
}

extension JSONPatch.Operation {
  /// The operation with `prefix` in front of its paths: the same change, made to the value at
  /// `prefix` within a larger document.
  public func prefixed(by prefix: JSONPointer) -> Self {
    guard !prefix.isRoot else { return self }
    func join(_ pointer: JSONPointer) -> JSONPointer {
      JSONPointer(tokens: prefix.tokens + pointer.tokens)
    }
    switch self {
    case .add(let path, let value): return .add(path: join(path), value: value)
    case .remove(let path): return .remove(path: join(path))
    case .replace(let path, let value): return .replace(path: join(path), value: value)
    case .move(let from, let path): return .move(from: join(from), path: join(path))
    case .copy(let from, let path): return .copy(from: join(from), path: join(path))
    case .test(let path, let value): return .test(path: join(path), value: value)
    }
  }
}

extension JSONValue {
  /// Whether this value holds at least `count` values, itself included; counts no further.
  func holdsAtLeast(_ count: Int) -> Bool {
    var remaining = count
    countDown(&remaining)
    return remaining <= 0
  }

  private func countDown(_ remaining: inout Int) {
    remaining -= 1
    switch self {
    case .array(let elements):
      for element in elements where remaining > 0 { element.countDown(&remaining) }
    case .object(let object):
      for member in object where remaining > 0 { member.value.countDown(&remaining) }
    default:
      break
    }
  }

  /// How many values this value holds, itself included.
  var nodeCount: Int {
    switch self {
    case .array(let elements): 1 + elements.reduce(0) { $0 + $1.nodeCount }
    case .object(let object): 1 + object.reduce(0) { $0 + $1.value.nodeCount }
    default: 1
    }
  }
}
