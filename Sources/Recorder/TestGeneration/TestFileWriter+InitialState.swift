import TraceJSON

extension TestFileWriter {
  /// Declares `initialState`, the recorded `state` a test starts from, as Swift where that
  /// compiles on every app the generator has met.
  ///
  /// A trace that starts from what look like a state's defaults started from `State()`: most
  /// features have one, a hand-written `public init() {}` as often as a memberwise initializer
  /// with defaults, while no other initializer can be assumed. A later state is then `State()`
  /// changed by the statements the step assertions use (`state.cart.quantities = [13: 2]`),
  /// which make the same assumptions as those assertions. Any other start is written as the
  /// renderer writes a value: the state's memberwise initializer, else its JSON, decoded.
  mutating func declareInitialState(_ state: JSONValue) {
    let stateType = TypeName.displayName(header.stateType)
    if let lines = changesFromDefault(to: state) {
      if lines.isEmpty {
        body.append("    let initialState = \(stateType)()")
        return
      }
      body.append("    var initialState = \(stateType)()")
      for line in lines { append(line, indent: 2) }
      return
    }
    let declaration = "let initialState: \(stateType) = "
    let initial = renderer.expression(
      state, type: header.stateType, inlineLimit: 100 - 4 - declaration.count - 20)
    append(declaration + initial, indent: 2)
  }

  /// The statements that take `State()` to `state`, when the trace started from what looks
  /// like `State()`; `nil` when it did not, or a statement cannot be written.
  private mutating func changesFromDefault(to state: JSONValue) -> [String]? {
    let start = header.initialState
    guard renderer.looksDefault(start, type: header.stateType), !start.containsRedaction,
      !state.containsRedaction
    else { return nil }
    return statements(changing: start, to: state, on: "initialState")
  }

  /// The statements on `variable` that take `start` to `state`, as the step assertions write
  /// them; `nil` when one cannot be written (a redacted or unknown value in the way).
  private mutating func statements(
    changing start: JSONValue, to state: JSONValue, on variable: String
  ) -> [String]? {
    var current = start
    let writer = StateAssertionWriter(schema: schema, stateType: header.stateType)
    guard
      let assertion = try? writer.assertion(
        for: JSONPatch.diff(from: start, to: state), state: &current, renderer: &renderer),
      assertion.redactedPaths.isEmpty
    else { return nil }
    // The assertions' statements mutate `$0`; here the first `$0` of each is the variable.
    return assertion.statements.map { statement in
      guard let range = statement.range(of: "$0") else { return statement }
      return statement.replacingCharacters(in: range, with: variable)
    }
  }

  /// Declares `initialState` for a test function starting before `step`, as
  /// `Self.stateBeforeStepN()`: a helper that builds the state the function before started
  /// from and changes it, when it can, so that a session's growing state is written once, as
  /// what changed since the last start, instead of whole in every function; else one that
  /// declares it as ``declareInitialState(_:)`` does.
  mutating func declareInitialState(_ state: JSONValue, before step: Int) {
    let stateType = TypeName.displayName(header.stateType)
    let name = "stateBeforeStep\(step)"
    var lines = [
      "", "  /// The state before step \(step), as the trace recorded it.",
      "  static func \(name)() throws -> \(stateType) {",
    ]
    if let statements = changes(from: previousStart, to: state) {
      lines[1] = "  /// The state before step \(step), as the trace recorded it: the one before step "
        + "\(previousStart!.step), changed."
      lines.append("    var state = try stateBeforeStep\(previousStart!.step)()")
      for line in statements.joined(separator: "\n").split(
        separator: "\n", omittingEmptySubsequences: false)
      {
        lines.append(line.isEmpty ? "" : "    " + line)
      }
    } else {
      let saved = body
      declareInitialState(state)
      for line in body[saved.count...] {
        lines.append(
          line.replacingOccurrences(of: "let initialState", with: "let state")
            .replacingOccurrences(of: "var initialState", with: "var state")
            .replacingOccurrences(of: "initialState.", with: "state."))
      }
      body = saved
    }
    lines += ["    return state", "  }"]
    startHelpers += lines
    body.append("    let initialState = try Self.\(name)()")
    previousStart = state.containsUnknown ? nil : (step, state)
  }

  /// The statements on `state` that take the previous start to `state`; `nil` when there is no
  /// previous start or they cannot be written.
  private mutating func changes(
    from previous: (step: Int, state: JSONValue)?, to state: JSONValue
  ) -> [String]? {
    guard let previous, !state.containsUnknown else { return nil }
    return statements(changing: previous.state, to: state, on: "state")
  }
}
