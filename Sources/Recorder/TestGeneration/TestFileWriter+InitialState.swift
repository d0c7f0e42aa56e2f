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
    var current = start
    let writer = StateAssertionWriter(schema: schema, stateType: header.stateType)
    guard
      let assertion = try? writer.assertion(
        for: JSONPatch.diff(from: start, to: state), state: &current, renderer: &renderer),
      assertion.redactedPaths.isEmpty
    else { return nil }
    // The assertions' statements mutate `$0`; here the first `$0` of each is the state.
    return assertion.statements.map { statement in
      guard let range = statement.range(of: "$0") else { return statement }
      return statement.replacingCharacters(in: range, with: "initialState")
    }
  }
}
