extension TestStore {
  /// Whether the effects the reducer returns are run; `true` by default.
  ///
  /// Turn it off to test a reducer against a recorded session: no effect starts, so nothing
  /// depends on a network, a clock or a live dependency, and the test feeds in what the effects
  /// sent when the session was recorded, with
  /// ``receive(replaying:assert:fileID:file:line:column:)``.
  ///
  /// ```swift
  /// store.runsEffects = false
  /// await store.send(.factButtonTapped) {
  ///   $0.isLoading = true
  /// }
  /// await store.receive(replaying: .factResponse("2 is a prime number.")) {
  ///   $0.fact = "2 is a prime number."
  ///   $0.isLoading = false
  /// }
  /// ```
  ///
  /// `.send` effects are not reduced: the test feeds their actions in too. What the effect
  /// cancels (`.cancel(id:)`, `cancellable(id:cancelInFlight: true)`) is still cancelled, so an
  /// effect started while effects ran stops where the recording saw it stop.
  public var runsEffects: Bool {
    get { reducer.runsEffects }
    set { reducer.runsEffects = newValue }
  }

  /// Feeds in `action` as if an effect had sent it, and asserts the state it leads to.
  ///
  /// This is `receive` for tests that do not run effects (``runsEffects`` off): the action is
  /// what an effect sent when the session was recorded, and the test supplies it, visibly,
  /// instead of waiting for an effect to send it. The reducer sees it as an effect's action.
  ///
  /// ```swift
  /// await store.receive(replaying: .timerTick) {
  ///   $0.count = 3
  /// }
  /// ```
  public func receive(
    replaying action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    reducer.location = site
    let previous = assertedState
    let position = reducer.received.count
    CallSite.$reducing.withValue(site) {
      _ = core.send(action, origin: .effect(parent: max(core.stepCount - 1, 0)))
    }
    // The reducer filed the action with those effects sent; it is asserted here, not later.
    let fed = reducer.received.remove(at: position)
    expectState(from: previous, toBecome: fed.state, by: updateStateToExpectedResult, at: site)
    assertedState = fed.state
    for _ in 0..<20 { await Task.yield() }
  }
}
