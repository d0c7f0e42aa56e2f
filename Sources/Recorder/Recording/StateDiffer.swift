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
    if areEqual(old, new) == true { return }

    if let newCollection = new as? any PositionallyDiffable,
      let oldCollection = old as? any PositionallyDiffable,
      let ranges = newCollection._positionsThatMayDiffer(fromAny: old),
      case .array(let oldElements) = oldJSON, oldElements.count == newCollection.count
    {
      for range in ranges {
        for position in range {
          try walk(
            old: oldCollection._element(at: position),
            new: newCollection._element(at: position),
            oldJSON: oldElements[position],
            path: path.appending(index: position),
            into: &operations
          )
        }
      }
      return
    }

    if case .object(let oldObject) = oldJSON, type(of: old) == type(of: new) {
      let newMirror = Mirror(reflecting: new)
      if newMirror.displayStyle == .struct, newMirror.superclassMirror == nil {
        let oldChildren = Self.presentChildren(of: Mirror(reflecting: old))
        if let oldChildren, oldChildren.count == oldObject.count,
          oldChildren.allSatisfy({ oldObject.contains(key: $0.key) })
        {
          for child in newMirror.children {
            guard let label = child.label else { return try replace() }
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
  private static func presentChildren(of mirror: Mirror) -> [String: Any]? {
    var children: [String: Any] = [:]
    for child in mirror.children {
      guard let label = child.label else { return nil }
      if let value = unwrapped(child.value) { children[label] = value }
    }
    return children
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

/// Compares two values of unknown type: `nil` when they are not `Equatable` values of one type.
func areEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
  guard let lhs = lhs as? any Equatable else { return nil }
  return isEqual(lhs, rhs)
}

private func isEqual<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool? {
  guard let rhs = rhs as? T else { return nil }
  return lhs == rhs
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
  /// How many values this value holds, itself included.
  var nodeCount: Int {
    switch self {
    case .array(let elements): 1 + elements.reduce(0) { $0 + $1.nodeCount }
    case .object(let object): 1 + object.reduce(0) { $0 + $1.value.nodeCount }
    default: 1
    }
  }
}
