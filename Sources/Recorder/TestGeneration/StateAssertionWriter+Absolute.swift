import TraceJSON

extension StateAssertionWriter {
  /// The statements for `patch` as assignments of the values it leaves, for a test store whose
  /// exhaustivity is off; `state` is moved on past the patch.
  ///
  /// With exhaustivity off, `TestStore` applies the assertion closure to the state the reducer
  /// produced, not to the state before the step: `$0.cart.move(fromOffsets: [0], toOffset: 2)`
  /// moves the line a second time, `append` adds a second copy. So each change is written as an
  /// assignment of the whole value at the changed path, which gives the same result whatever it
  /// is applied to. An array whose elements the patch adds, removes or moves is assigned whole,
  /// since positions inside it do not survive the patch; under it, and anywhere else, paths are
  /// those of the state after the patch. A value holding redacted data is assigned member by
  /// member, leaving out what was redacted.
  func absoluteAssertion(
    for patch: JSONPatch, state: inout JSONValue, renderer: inout SwiftRenderer
  ) throws(JSONPatchError) -> Assertion {
    let final = try patch.apply(to: state)
    // The arrays whose elements the patch adds, removes or moves, found in the state each
    // operation applies to.
    var reshaped: [[String]] = []
    var before = state
    for operation in patch.operations {
      var containers: [JSONPointer?] = []
      switch operation {
      case .add, .remove, .copy: containers = [operation.path.parent]
      case .move(let from, let path): containers = [from.parent, path.parent]
      case .replace, .test, .splice: break
      }
      for case let container? in containers
      where container.resolve(in: before)?.arrayValue != nil
        && !reshaped.contains(container.tokens)
      {
        reshaped.append(container.tokens)
      }
      before = try JSONPatch([operation]).apply(to: before)
    }
    let initial = state
    state = final

    var assertion = Assertion()
    var statements: [Statement] = []
    var assigned: [[String]] = []
    for operation in patch.operations {
      if case .test = operation { continue }
      var tokens = operation.path.tokens
      // An `id` is usually a `let`: a new id means a new value, assigned whole.
      if tokens.last == "id", tokens.count > 1 { tokens.removeLast() }
      if let outermost = reshaped.filter({ tokens.starts(with: $0) }).min(by: {
        $0.count < $1.count
      }) {
        tokens = outermost
      }
      guard !assigned.contains(where: { tokens.starts(with: $0) }) else { continue }
      // The deepest value at or above the path that Swift can name.
      var named: Target?
      while named == nil {
        named = target(tokens, in: final, renderer: &renderer)
        if named == nil {
          guard !tokens.isEmpty else { break }
          tokens.removeLast()
        }
      }
      assigned.append(tokens)
      guard let named else {
        let whole = renderer.expression(final, type: stateType)
        statements.append(Statement(enclosing: [], body: "$0 = \(whole)"))
        continue
      }
      let path = JSONPointer(tokens: tokens)
      for statement in assignments(
        to: named, at: tokens, value: path.resolve(in: final), before: path.resolve(in: initial),
        final: final, redacted: &assertion.redactedPaths, renderer: &renderer)
      where !statements.contains(statement) {
        statements.append(statement)
      }
    }
    assertion.statements = Statement.render(statements)
    return assertion
  }

  /// `target = value`, `value` being what the patch leaves at `tokens` in `final`, and
  /// `before` what was there before it. A value holding redacted data cannot be written whole:
  /// its members (or elements) are assigned one by one, those that changed, leaving out what
  /// was redacted (listed in `redacted` when it changed) and `id`s (usually `let`s, and what an
  /// identified element is reached by); an identified element that went away is removed by id.
  private func assignments(
    to target: Target, at tokens: [String], value: JSONValue?, before: JSONValue?,
    final: JSONValue, redacted: inout [String], renderer: inout SwiftRenderer
  ) -> [Statement] {
    guard let value else { return [target.assign("nil")] }
    guard value.containsUnknown else {
      return [target.assign(renderer.expression(value, type: target.type))]
    }
    if value == RedactionFlow.unknownValue {
      if before != value { redacted.append(JSONPointer(tokens: tokens).description) }
      return []
    }
    var statements: [Statement] = []
    var children: [(key: String, value: JSONValue, before: JSONValue?)] = []
    switch value {
    case .object(let members):
      for (key, child) in members where key != "id" {
        children.append((key, child, before?.objectValue?[key]))
      }
    case .array(let elements):
      // Elements with ids are matched by id, as the statements reach them.
      let earlier = before?.arrayValue ?? []
      let ids = elements.compactMap { $0.objectValue?["id"] }
      for (index, element) in elements.enumerated() {
        let match =
          element.objectValue?["id"].map { id in earlier.first { $0.objectValue?["id"] == id } }
          ?? (index < earlier.count ? earlier[index] : nil)
        children.append((String(index), element, match))
      }
      if ids.count == elements.count, TypeName.shortName(target.type ?? "") == "IdentifiedArray" {
        for gone in earlier.compactMap({ $0.objectValue?["id"] }) where !ids.contains(gone) {
          // Idempotent: removing what is already gone changes nothing.
          let id = renderer.expression(gone, type: identifierType(of: target))
          statements.append(target.statement("\(target.receiver).remove(id: \(id))"))
        }
      }
    default:
      break
    }
    for child in children where child.value != child.before {
      let path = tokens + [child.key]
      guard let inner = self.target(path, in: final, renderer: &renderer) else {
        // Not nameable from Swift: left unasserted.
        if child.value.containsUnknown { redacted.append(JSONPointer(tokens: path).description) }
        continue
      }
      statements += assignments(
        to: inner, at: path, value: child.value, before: child.before, final: final,
        redacted: &redacted, renderer: &renderer)
    }
    return statements
  }

  /// The type of the `id` of an identified array's elements, if the trace says.
  private func identifierType(of target: Target) -> String? {
    guard let type = target.type,
      case .collection(let element)? = schema.description(of: TypeName.unwrappingOptional(type)),
      case .structure(let members)? = schema.description(of: element)
    else { return nil }
    return members.first { $0.name == "id" }?.type
  }
}
