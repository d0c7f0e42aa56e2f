import TraceJSON

/// The states a generated test asserts, with redacted values made as predictable as the trace
/// allows.
///
/// Each redacted value gets the placeholder of its declared type (``RedactionPlaceholders``), in
/// states and in actions alike, so a token sent in `loggedIn(token:)` and kept in
/// `sessionToken` is the same placeholder in both: the test sends it, the reducer stores it,
/// and the assertion names it, with exhaustivity on. A redacted value a step writes is
/// *unknown* when the step's action carries no placeholder of its type (it came from a
/// dependency, or from a value the test does not have): the test cannot say what the reducer
/// computes there, so such a value is never asserted, and exhaustivity is off for each step
/// that changes one.
struct RedactionFlow {
  let placeholders: RedactionPlaceholders
  let stateType: String
  let actionType: String
  /// The state as the trace recorded it, redaction markers and all.
  private(set) var recorded: JSONValue
  /// The state as the test knows it: placeholders where it can know them, ``unknownValue``
  /// where it cannot.
  private(set) var state: JSONValue
  /// The JSON Pointers of the unknown values ``state`` holds.
  private(set) var unknown: Set<String> = []

  /// What stands, in ``state``, for a value the test cannot know; never written out.
  static let unknownValue: JSONValue = .object(["$unknown": .bool(true)])

  init(
    placeholders: RedactionPlaceholders, stateType: String, actionType: String,
    recorded: JSONValue
  ) {
    self.placeholders = placeholders
    self.stateType = stateType
    self.actionType = actionType
    self.recorded = recorded
    // The starting state is the test's to choose: its placeholders are known from then on.
    var filled = placeholders.fill(recorded, type: stateType)
    for site in filled.sites where site.placeholder == nil {
      Self.set(&filled.value, at: site.path)
      unknown.insert(site.path)
    }
    state = filled.value
  }

  /// One step as the test asserts it.
  struct Step {
    /// The change to assert, from the state the test knows to the next.
    var patch: JSONPatch
    /// Whether the test can check the whole state after the step: it changes no unknown value.
    var exhaustive: Bool
    /// The unknown values the step wrote, as JSON Pointers.
    var unknownWritten: [String]
  }

  /// Moves on past `step`, and says what the test asserts for it.
  mutating func advance(_ step: TraceStep) throws(JSONPatchError) -> Step {
    let after = try step.patch.apply(to: recorded)
    defer { recorded = after }
    let writes = step.patch.operations.filter { $0.value?.containsRedaction == true }
    let held = unknown
    guard !writes.isEmpty || !held.isEmpty else {
      // Nothing redacted is written or held: the recorded patch says it all.
      try step.patch.apply(to: &state)
      return Step(patch: step.patch, exhaustive: true, unknownWritten: [])
    }
    let sentTypes = Set(
      placeholders.fill(step.action ?? .null, type: actionType).sites.compactMap {
        $0.placeholder == nil ? nil : $0.type
      })
    // Collections whose elements the step adds, removes or moves: an unknown value held in one
    // may have moved, so every redacted value in it stays unknown.
    let reshaped = step.patch.operations.compactMap { operation -> String? in
      switch operation {
      case .add, .remove, .move, .copy:
        guard let parent = operation.path.parent, parent.resolve(in: recorded)?.arrayValue != nil
        else { return nil }
        return parent.description
      case .replace, .test, .splice: return nil
      }
    }.filter { parent in held.contains { $0.hasPrefix(parent + "/") } }
    var filled = placeholders.fill(after, type: stateType)
    var next: Set<String> = []
    var written: [String] = []
    for site in filled.sites {
      let isWritten = writes.contains { operation in
        let path = operation.path.description
        return site.path == path || site.path.hasPrefix(path + "/")
      }
      let fromAction = site.type.map(sentTypes.contains) ?? false
      let wasUnknown =
        held.contains(site.path) || reshaped.contains { site.path.hasPrefix($0 + "/") }
      if site.placeholder == nil || (isWritten && !fromAction) || (!isWritten && wasUnknown) {
        next.insert(site.path)
        if isWritten { written.append(site.path) }
      }
    }
    for path in next { Self.set(&filled.value, at: path) }
    let patch = JSONPatch.diff(from: state, to: filled.value)
    state = filled.value
    unknown = next
    // A test store that is not exhaustive for a step carries on from the state the reducer
    // produced, unknown values and all: only a step that changes one cannot be checked whole.
    let changesUnknown = patch.operations.contains {
      $0.name != "test" && $0.value?.containsUnknown == true
    }
    return Step(patch: patch, exhaustive: !changesUnknown, unknownWritten: written)
  }

  /// Puts ``unknownValue`` at `path` in `value`.
  private static func set(_ value: inout JSONValue, at path: String) {
    guard let pointer = JSONPointer(path) else { return }
    if pointer.tokens.isEmpty {
      value = unknownValue
    } else {
      try? JSONPatch([.replace(path: pointer, value: unknownValue)]).apply(to: &value)
    }
  }
}

extension JSONValue {
  /// Whether the value is, or holds, ``RedactionFlow/unknownValue``.
  var containsUnknown: Bool {
    switch self {
    case .object(let object):
      self == RedactionFlow.unknownValue || object.values.contains { $0.containsUnknown }
    case .array(let elements): elements.contains { $0.containsUnknown }
    default: false
    }
  }
}
