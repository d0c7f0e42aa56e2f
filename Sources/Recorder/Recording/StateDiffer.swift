import Architecture
import TraceJSON

/// Turns each new state into a patch against the previous one, with work that follows the size
/// of the change rather than the size of the state.
///
/// Small states are simply encoded whole and diffed. For large ones the differ walks the old
/// and new Swift values side by side: equal subtrees (`Equatable`, with an identity fast path
/// for collections that share storage) are skipped without encoding, identified arrays say
/// which chunks changed, and only the subtrees that differ are encoded and diffed.
///
/// The walk follows each value's own encoding, never its stored properties: it descends into a
/// value only through the keys and values its `encode(to:)` writes (``EncodedShape``), and
/// encodes whole, with the real `Encodable`, whatever it cannot follow exactly. Every value it
/// writes is encoded at its place in the state and redacted there, so a patch holds what a
/// whole encoding, redacted, would hold. The first walks and every keyframe are also checked
/// against a whole encoding; a mismatch (a bug) turns the walk off.
struct StateDiffer<State: Encodable> {
  /// The encoded, redacted previous state.
  private(set) var json: JSONValue
  private var value: State
  let encoder = JSONValueEncoder.recording
  let redactions: [Redaction]
  /// Whether the state is large enough to walk; small states are diffed whole.
  private var isLarge: Bool
  private var wholeAdvances = 0
  private var walksToVerify = 3
  private var canWalk = true
  private let types = WalkTypes()
  /// The previous state's hidden values, and those the parts encoded in this step found: a
  /// hidden value changed in place is said by the patch (``HiddenValues``).
  private var hidden = HiddenValues()
  private let hiddenParts = HiddenValues.Parts()

  static var walkThreshold: Int { 256 }

  /// Whether `json` holds `walkThreshold` values, or a few long ones (a long string, `Data`):
  /// encoding it whole each step would cost more than walking it.
  static func isLarge(_ json: JSONValue) -> Bool {
    json.holdsAtLeast(walkThreshold) || json.jsonSize(upTo: 16 * 1024) > 16 * 1024
  }

  /// The previous state, as a Swift value.
  var state: State { value }

  /// Whether the walk is on: it turns off for good when a walked patch proves wrong.
  var isWalking: Bool { canWalk }

  /// How many JSON values the last ``advance(to:)`` encoded, `Int.max` when it encoded the
  /// state whole: the work that follows the state's size when the walk cannot follow the change.
  var encodedInLastAdvance: Int { tally.values }
  private let tally = EncodeTally()

  init(initialState: State, redactions: [Redaction]) throws {
    self.redactions = redactions
    self.value = initialState
    self.json = .null
    self.isLarge = false
    json = try encodeWhole(initialState)
    isLarge = Self.isLarge(json)
    takeHiddenValues()
  }

  /// Moves to `state`, returning the patch from the previous state to it.
  ///
  /// With redaction rules, the patch also says each hidden value that changed in place: a
  /// `test` and a `replace` of its placeholder with itself, at its end.
  mutating func advance(to state: State) throws -> JSONPatch {
    guard !redactions.isEmpty else { return try advanceEncoding(to: state) }
    hiddenParts.list.removeAll(keepingCapacity: true)
    var patch = try advanceEncoding(to: state)
    let changed = hidden.changes(after: patch, parts: hiddenParts.list)
    hiddenParts.list.removeAll(keepingCapacity: true)
    guard !changed.isEmpty else { return patch }
    var operations = patch.operations
    for path in changed {
      operations.append(.test(path: path, value: Redaction.placeholder))
      operations.append(.replace(path: path, value: Redaction.placeholder))
    }
    patch = JSONPatch(operations)
    return patch
  }

  /// Makes the hidden values the last whole encoding found the state's.
  private mutating func takeHiddenValues() {
    guard !redactions.isEmpty else { return }
    if let whole = hiddenParts.list.last(where: { $0.root.isRoot }) {
      hidden.reset(to: whole.found)
    }
    hiddenParts.list.removeAll(keepingCapacity: true)
  }

  private mutating func advanceEncoding(to state: State) throws -> JSONPatch {
    tally.values = 0
    guard canWalk, isLarge else { return try advanceWhole(to: state) }
    var operations: [JSONPatch.Operation] = []
    try walk(
      old: value, new: state, oldJSON: json, path: JSONPointer.root, codingPath: [],
      into: &operations
    )
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
        return JSONPatch.diff(from: old, to: whole, splicingStrings: true)
      }
    }
    value = state
    return patch
  }

  /// Re-encodes the state whole and checks the walked encoding against it: run at keyframes.
  /// On a mismatch the walk stops, and the whole encoding is what is kept and returned.
  mutating func verified() throws -> JSONValue {
    let whole = try encodeWhole(value)
    isLarge = Self.isLarge(whole)
    takeHiddenValues()
    if !whole.isIdentical(to: json) {
      canWalk = false
      json = whole
    }
    return json
  }

  private mutating func advanceWhole(to state: State) throws -> JSONPatch {
    let new = try encodeWhole(state)
    let patch = JSONPatch.diff(from: json, to: new, splicingStrings: true)
    json = new
    value = state
    // Sizing a small state cost more than diffing it: a state that grows is found within a
    // few dozen steps (and at the next keyframe).
    wholeAdvances &+= 1
    if wholeAdvances % 32 == 0 { isLarge = Self.isLarge(new) }
    // Not counted: counting cost a walk of the state on every step of a small one.
    tally.values = .max
    return patch
  }

  func walk(
    old: any Encodable, new: any Encodable, oldJSON: JSONValue, path: JSONPointer,
    codingPath: [any CodingKey], into operations: inout [JSONPatch.Operation]
  ) throws {
    // A value recorded by reflection is compared, and its collections walked, as the value it
    // wraps; its encoding is still the box's.
    let encodedOld = old
    let encodedNew = new
    // Unwrapped by the types' cached facts: a failed `as? any ReflectedBox` per node cost the
    // typed path 4% of its instructions (callgrind, `profile-record todos1000`).
    let old: Any = types.facts(of: old).unboxed?(old) ?? old
    let new: Any = types.facts(of: new).unboxed?(new) ?? new
    let facts = types.facts(of: new)
    // A standard collection is compared element by element below, a large struct member by
    // member, and `Data` byte by byte: `==` first would compare everything in it twice.
    let comparesParts =
      facts.isWalkableArray || facts.isWalkableKeyed || facts.isData
      || (facts.isWalkable && !facts.isPositional && oldJSON.holdsAtLeast(64))
    if !comparesParts, facts.equal?(old, new) == true { return }

    // An identified array encodes its elements in order, each as itself (its conformance is
    // ours): a changed element is walked on its own.
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
          let elementFacts = types.facts(of: newElement)
          if elementFacts.equal?(oldElement, newElement) == true { continue }
          guard let open = elementFacts.encodable, let oldElement = open(oldElement),
            let newElement = open(newElement)
          else { return try replace() }
          try walk(
            old: oldElement,
            new: newElement,
            oldJSON: oldElements[position],
            path: path.appending(index: position),
            codingPath: codingPath + [JSONCodingKey(intValue: position)],
            into: &operations
          )
        }
      }
      return
    }

    // A small value is encoded whole and diffed: taking it apart cost more per member than
    // encoding it, and the patch is the same.
    if !oldJSON.holdsAtLeast(64) {
      // `Data` first: finding its changed run also tells whether it changed, in one pass.
      if let oldData = old as? Data, let newData = new as? Data, redactions.isEmpty,
        case .string(let oldText) = oldJSON,
        let splice = Self.dataSplice(from: oldData, to: newData, oldText: oldText, at: path)
      {
        operations.append(contentsOf: splice)
        return
      }
      // A few values, but long ones (a struct around a long string): walked into, so that
      // only the member that changed is encoded.
      let isContainer: Bool
      switch oldJSON {
      case .object, .array: isContainer = true
      default: isContainer = false
      }
      guard isContainer, oldJSON.jsonSize(upTo: 4_096) > 4_096 else {
        return try replaceUnlessEqual()
      }
    }

    // Standard collections are compared element by element, or key by key, with `==`.
    if facts.isWalkableArray, let newArray = new as? any WalkableArray,
      let oldArray = old as? any WalkableArray
    {
      if try walkArray(
        old: oldArray, new: newArray, oldJSON: oldJSON, path: path, codingPath: codingPath,
        into: &operations)
      {
        return
      }
      return try replaceUnlessEqual()
    }
    if facts.isWalkableKeyed, let newCollection = new as? any WalkableKeyedCollection,
      let oldCollection = old as? any WalkableKeyedCollection
    {
      if try walkKeyed(
        old: oldCollection, new: newCollection, oldJSON: oldJSON, path: path,
        codingPath: codingPath, into: &operations)
      {
        return
      }
      return try replaceUnlessEqual()
    }

    // Otherwise the walk follows what the value's own `encode(to:)` writes, one level at a
    // time: the keys it writes and the values it writes under them, never the stored
    // properties, so the patch holds what a whole encoding would. Classes are encoded whole (an
    // old and a new state may share an instance changed in place), and so are dictionaries and
    // sets, whose members the encoder sorts.
    guard facts.isWalkable, type(of: old) == type(of: new) else { return try replaceUnlessEqual() }
    switch (EncodedShape.of(encodedOld), EncodedShape.of(encodedNew)) {
    case (.keyed(let oldMembers), .keyed(let newMembers)):
      guard case .object(let oldObject) = oldJSON, oldMembers.count == oldObject.count,
        oldMembers.allSatisfy({ oldObject.contains(key: $0.key) })
      else { return try replaceUnlessEqual() }
      for (position, member) in newMembers.enumerated() {
        let memberPath = path.appending(member.key)
        let memberCodingPath = codingPath + [JSONCodingKey(stringValue: member.key)]
        let oldMember =
          position < oldMembers.count && oldMembers[position].key == member.key
          ? oldMembers[position] : oldMembers.first { $0.key == member.key }
        if let oldMember, let oldMemberJSON = oldObject[member.key] {
          try walk(
            old: oldMember.value, new: member.value, oldJSON: oldMemberJSON, path: memberPath,
            codingPath: memberCodingPath, into: &operations
          )
        } else {
          let value = try encode(member.value, at: memberPath, memberCodingPath)
          operations.append(.add(path: memberPath, value: value))
        }
      }
      for member in oldMembers where !newMembers.contains(where: { $0.key == member.key }) {
        let memberPath = path.appending(member.key)
        operations.append(.test(path: memberPath, value: oldObject[member.key]!))
        operations.append(.remove(path: memberPath))
      }
    case (.single(let oldValue), .single(let newValue)):
      // A single-value container encodes its value straight into this value's place.
      try walk(
        old: oldValue, new: newValue, oldJSON: oldJSON, path: path, codingPath: codingPath,
        into: &operations
      )
    default:
      try replaceUnlessEqual()
    }

    /// Encodes the value whole, unless `==` (skipped above to compare the parts) says that it
    /// did not change.
    func replaceUnlessEqual() throws {
      if comparesParts, facts.equal?(old, new) == true { return }
      try replace()
    }

    func replace() throws {
      let newJSON = try encode(encodedNew, at: path, codingPath)
      for operation in JSONPatch.diff(from: oldJSON, to: newJSON, splicingStrings: true).operations {
        operations.append(operation.prefixed(by: path))
      }
    }
  }

  /// The `splice` of base64 text that turns `old`, encoded as `oldText`, into `new`, found
  /// from the bytes and encoding only the groups of three bytes that changed: encoding a
  /// megabyte whole to find a one-byte change cost more than the rest of the step. No
  /// operation when the bytes are equal; `nil` when the data is short, or the text is not
  /// `old`'s base64.
  static func dataSplice(
    from old: Data, to new: Data, oldText: String, at path: JSONPointer
  ) -> [JSONPatch.Operation]? {
    let oldCount = old.count
    let newCount = new.count
    guard max(oldCount, newCount) >= JSONPatch.spliceThreshold,
      oldText.utf8.count == (oldCount + 2) / 3 * 4
    else { return nil }
    let shorter = min(oldCount, newCount)
    let byte = RawBytes.Layout(of: UInt8.self)
    let (prefix, suffix) = old.withUnsafeBytes { oldBytes in
      new.withUnsafeBytes { newBytes -> (Int, Int) in
        guard let oldStart = oldBytes.baseAddress, let newStart = newBytes.baseAddress else {
          return (0, 0)
        }
        let prefix = RawBytes.commonPrefix(oldStart, newStart, count: shorter, byte)
        let suffix = RawBytes.commonSuffix(
          endingAt: oldStart + oldCount, newStart + newCount, count: shorter - prefix, byte)
        return (prefix, suffix)
      }
    }
    if prefix == oldCount, oldCount == newCount { return [] }
    // Base64 text changes in whole groups of three bytes, counted from the start. A kept tail
    // lines up in both texts when it leaves whole groups before it in both, and begins after
    // the first changed group; without one, the text is re-encoded to its end.
    let firstGroup = prefix / 3
    var tail = 0
    if (newCount - oldCount) % 3 == 0 {
      var candidate = suffix - ((suffix - oldCount) % 3 + 3) % 3
      while candidate > 0,
        (oldCount - candidate) / 3 < firstGroup || (newCount - candidate) / 3 < firstGroup
      {
        candidate -= 3
      }
      tail = max(0, candidate)
    }
    let oldTextEnd = tail == 0 ? oldText.utf8.count : (oldCount - tail) / 3 * 4
    let newEnd = newCount - tail
    let start = firstGroup * 4
    guard start <= oldTextEnd else { return nil }
    var text = oldText
    let removed = text.withUTF8 { String(decoding: $0[start..<oldTextEnd], as: UTF8.self) }
    let inserted = new.subdata(in: (firstGroup * 3)..<max(firstGroup * 3, newEnd))
      .base64EncodedString()
    return [.splice(path: path, offset: start, old: removed, new: inserted)]
  }

  /// The state encoded whole, redacted; what it hid is this step's only part.
  private func encodeWhole(_ state: State) throws -> JSONValue {
    var json = try encoder.encode(state)
    guard !redactions.isEmpty else { return json }
    let collector = HiddenValues.Collector()
    Redaction.apply(redactions, to: &json, isState: true, noting: collector)
    hiddenParts.list = [(.root, collector.found)]
    return json
  }

  /// `value` encoded as the part of the state at `path`, redacted as it is there.
  func encode(
    _ value: any Encodable, at path: JSONPointer, _ codingPath: [any CodingKey]
  ) throws -> JSONValue {
    var json = try encoder.encode(value, asPartAt: codingPath)
    if !redactions.isEmpty {
      // The previous state holds every container above `path`: it says which are arrays.
      var indexLevels: UInt64 = 0
      var container: JSONValue? = self.json
      for (level, token) in path.tokens.enumerated() {
        if case .array(let elements)? = container {
          if level < 64 { indexLevels |= 1 << UInt64(level) }
          container = JSONPointer.arrayIndex(token).flatMap {
            $0 < elements.count ? elements[$0] : nil
          }
        } else if case .object(let object)? = container {
          container = object[token]
        } else {
          container = nil
        }
      }
      let collector = HiddenValues.Collector(location: path.tokens, indexLevels: indexLevels)
      Redaction.apply(redactions, to: &json, at: path.tokens, noting: collector)
      hiddenParts.list.append((path, collector.found))
    }
    tally.values += json.nodeCount
    return json
  }
}

/// Counts what the differ encodes, for tests; a class, so the non-mutating walk can count.
private final class EncodeTally {
  var values = 0
}

/// What the walk needs to know of a value's type, found once per type.
///
/// A cast to a protocol existential (`as? any Equatable`) is dear, and the walk would make
/// several for every value it looks at; a cast to the concrete type is cheaper.
private final class WalkTypes {
  struct Facts {
    /// Compares two values, the first of this type: `nil` when the type is not `Equatable` or
    /// the second value is of another type.
    let equal: ((Any, Any) -> Bool?)?
    /// Whether the type can say which of its positions may have changed.
    let isPositional: Bool
    /// Whether the walk may follow the type's encoding into its members: not for classes, nor
    /// for dictionaries and sets.
    let isWalkable: Bool
    /// Whether the type is an array of `Equatable` elements.
    let isWalkableArray: Bool
    /// Whether the type is a dictionary with `Equatable` values, or a set.
    let isWalkableKeyed: Bool
    /// Whether the type is `Data`, whose change is found from its bytes.
    let isData: Bool
    /// The value as `Encodable`, by a cast to the concrete type; `nil` if the type is not.
    let encodable: ((Any) -> (any Encodable)?)?
    /// The value a ``Reflected`` box wraps; `nil` if the type is not a box.
    let unboxed: ((Any) -> Any)?
  }

  private var known: [ObjectIdentifier: Facts] = [:]

  func facts(of value: Any) -> Facts {
    let type = Swift.type(of: value)
    if let facts = known[ObjectIdentifier(type)] { return facts }
    var equal: ((Any, Any) -> Bool?)?
    if let equatable = type as? any Equatable.Type { equal = equality(of: equatable) }
    // A value that is not `Encodable` is encoded by reflection.
    var encodable: ((Any) -> (any Encodable)?)? = { reflectedEncodable($0) }
    if let type = type as? any Encodable.Type { encodable = opener(of: type) }
    let facts = Facts(
      equal: equal,
      isPositional: type is any PositionallyDiffable.Type,
      isWalkable: !(type is AnyClass) && !(type is any JSONUnorderedCollection.Type),
      isWalkableArray: type is any WalkableArray.Type,
      isWalkableKeyed: type is any WalkableKeyedCollection.Type,
      isData: type == Data.self,
      encodable: encodable,
      unboxed: type is any ReflectedBox.Type ? { ($0 as! any ReflectedBox).wrappedValue } : nil
    )
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

private func opener<T: Encodable>(of _: T.Type) -> (Any) -> (any Encodable)? {
  { $0 as? T }
}

extension JSONPatch.Operation {
  /// The operation with `prefix` in front of its paths: the same change, made to the value at
  /// `prefix` within a larger document.
  package func prefixed(by prefix: JSONPointer) -> Self {
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
    case .splice(let path, let offset, let old, let new):
      return .splice(path: join(path), offset: offset, old: old, new: new)
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
      for element in elements {
        guard remaining > 0 else { return }
        element.countDown(&remaining)
      }
    case .object(let object):
      for member in object {
        guard remaining > 0 else { return }
        member.value.countDown(&remaining)
      }
    default:
      break
    }
  }

  /// How many values this value holds, itself included.
  var nodeCount: Int {
    var count = 1
    switch self {
    case .array(let elements): for element in elements { count += element.nodeCount }
    case .object(let object): for member in object.entries { count += member.value.nodeCount }
    default: break
    }
    return count
  }
}
