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
        statements.append(Statement(enclosing: [], body: "$0 = \(renderer.fallback(final, 0))"))
        continue
      }
      for statement in assignments(
        to: named, at: tokens, final: final, redacted: &assertion.redactedPaths,
        renderer: &renderer)
      where !statements.contains(statement) {
        statements.append(statement)
      }
    }
    assertion.statements = Statement.render(statements)
    return assertion
  }

  /// `target = value`, the value at `tokens` in `final`; a value holding redacted data is
  /// assigned member by member (or element by element), and what was redacted is listed in
  /// `redacted` instead.
  private func assignments(
    to target: Target, at tokens: [String], final: JSONValue, redacted: inout [String],
    renderer: inout SwiftRenderer
  ) -> [Statement] {
    guard let value = JSONPointer(tokens: tokens).resolve(in: final) else {
      return [target.assign("nil")]
    }
    guard value.containsRedaction else {
      return [target.assign(renderer.expression(value, type: target.type))]
    }
    if value == Redaction.placeholder {
      redacted.append(JSONPointer(tokens: tokens).description)
      return []
    }
    let children: [String]
    switch value {
    case .object(let members): children = members.keys.map { $0 }
    case .array(let elements): children = elements.indices.map(String.init)
    default: children = []
    }
    var statements: [Statement] = []
    for child in children {
      let path = tokens + [child]
      guard let inner = self.target(path, in: final, renderer: &renderer) else {
        // Not nameable from Swift: left unasserted.
        if let child = JSONPointer(tokens: path).resolve(in: final), child.containsRedaction {
          redacted.append(JSONPointer(tokens: path).description)
        }
        continue
      }
      statements += assignments(
        to: inner, at: path, final: final, redacted: &redacted, renderer: &renderer)
    }
    return statements
  }
}
