/// A store for tests that asserts, step by step, how a feature's state changes and which
/// actions its effects feed back.
///
/// ```swift
/// @MainActor
/// @Test func numberFact() async {
///   let store = TestStore(initialState: CounterFeature.State()) {
///     CounterFeature()
///   } withDependencies: {
///     $0.numberFact.fetch = { "\($0) is a good number." }
///   }
///
///   await store.send(.factButtonTapped) {
///     $0.isLoading = true
///   }
///   await store.receive(.factResponse("0 is a good number.")) {
///     $0.isLoading = false
///     $0.fact = "0 is a good number."
///   }
/// }
/// ```
///
/// It is exhaustive by default: every state change, every received action and every effect
/// must be accounted for, or the test fails with the wording TCA users know. Failures go to
/// Swift Testing or XCTest, whichever runs the test.
@MainActor
public final class TestStore<State: Equatable, Action> {
  /// How strictly the store checks that the test accounts for everything.
  public var exhaustivity: Exhaustivity = .on

  /// How long `receive` and `finish` wait for effects by default.
  public var timeout: Duration

  let core: StoreCore<State, Action>
  let reducer: TestReducer<State, Action>
  /// The state as of the last assertion: what the next assertion's closure starts from.
  var assertedState: State
  let origin: CallSite

  /// Creates a test store for `reducer` starting at `initialState`.
  ///
  /// Dependencies resolve their test values; override them in `prepareDependencies`.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    var dependencies = DependencyValues._current
    dependencies.context = .test
    // Every test store counts its stack element ids from 0, as TCA's do.
    dependencies.stackElementID = .incrementing()
    prepareDependencies(&dependencies)
    let (state, base) = DependencyValues.$_current.withValue(dependencies) {
      (initialState(), reducer())
    }
    let testReducer = TestReducer<State, Action>(base.reduce(into:action:))
    self.reducer = testReducer
    self.core = StoreCore(
      initialState: state,
      dependencies: dependencies,
      reducer: testReducer.reduce(into:action:)
    )
    self.core.runsEffectsSerially = true
    self.assertedState = state
    self.timeout = .seconds(1)
    self.origin = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The state as of the last assertion, as TCA 1.3's is.
  ///
  /// Actions effects sent that no `receive` has asserted yet are not in it, and inside the
  /// trailing closure of `send` or `receive` it is the state the closure was handed:
  ///
  /// ```swift
  /// // `.finished` was reduced already (clearing `draft`), but not asserted yet.
  /// try await store.receive(.finished(XCTUnwrap(store.state.draft))) {
  ///   $0.draft = nil
  /// }
  /// ```
  public var state: State { assertedState }

  /// Whether effects run one at a time on the main actor, interleaved with the test, in the order
  /// they were started; `true` by default, as TCA's is.
  ///
  /// With it, a test's outcome does not depend on how threads are scheduled: an effect gets to
  /// run while the test awaits `send`, `receive` or `finish`, and an older effect cannot
  /// overtake a newer one. What runs serially is the effect's own code, its child tasks and the
  /// default actors it calls; a `Task { … }` it starts runs in parallel, as
  /// `MainSerialExecutor` explains. Set it to `false` to run effects that started after in
  /// parallel, as a `Store` does.
  ///
  /// An effect that blocks its thread (a semaphore, a synchronous wait) blocks the test too.
  public var useMainSerialExecutor: Bool {
    get { core.runsEffectsSerially }
    set { core.runsEffectsSerially = newValue }
  }

  /// The dependencies the store runs the feature with; changes apply to later actions.
  public var dependencies: DependencyValues {
    get { core.dependencies }
    set { core.dependencies = newValue }
  }

  /// Sends `action` and asserts the state it leads to.
  ///
  /// `updateStateToExpectedResult` receives the state before the action and must change it
  /// into the state after. Omit it when the action changes nothing.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    if !reducer.received.isEmpty {
      if exhaustivity == .on {
        let count = reducer.received.count
        report(
          """
          Must handle \(count) received \(count == 1 ? "action" : "actions") before sending an \
          action: …

          Unhandled actions: \(customDump(reducer.received.map(\.action)))
          """,
          at: site
        )
      }
      assertedState = reducer.received.last!.state
      reducer.received.removeAll()
    }
    reducer.location = site
    let previous = assertedState
    let task = CallSite.$reducing.withValue(site) { core.send(action, origin: .send) }
    let actual = reducer.stateAfterSend ?? core.state
    expectState(
      from: previous, toBecome: actual, by: updateStateToExpectedResult, at: site,
      stackElementIDs: reducer.stackElementIDsBeforeSend
    )
    assertedState = actual
    // Let effects start before the test continues, as TCA does.
    for _ in 0..<20 { await Task.yield() }
    return TestStoreTask(
      rawValue: task, timeout: timeout, ledger: reducer.ledger, sentStep: reducer.lastSentStep)
  }

  /// Checks that `actual` is `previous` changed by `modify`, reporting TCA's messages if not;
  /// with `reportsUnchangedState`, a `modify` that changes nothing is reported too.
  func expectState(
    from previous: State,
    toBecome actual: State,
    by modify: ((inout State) throws -> Void)?,
    at site: CallSite,
    stackElementIDs: StackElementIDGenerator? = nil,
    reportsUnchangedState: Bool = true
  ) {
    var expected: State
    switch exhaustivity {
    case .on:
      expected = previous
    case .off:
      // Apply the test's changes to the actual state: whatever it leaves alone is unchecked.
      expected = actual
    }
    do {
      var dependencies = core.dependencies
      if let stackElementIDs { dependencies.stackElementID = stackElementIDs }
      // With exhaustivity off the closure starts from the actual state, where an `XCTModify`
      // may rightly change nothing.
      try XCTModifyLocals.$isExhaustive.withValue(exhaustivity == .on) {
        try DependencyValues.$_current.withValue(dependencies) { try modify?(&expected) }
      }
    } catch {
      report("Threw error: \(error)", at: site)
      return
    }
    if expected != actual {
      let header =
        modify == nil
        ? "State was not expected to change, but a change occurred: …"
        : "A state change does not match expectation: …"
      report(
        """
        \(header)

        \(indent(diff(expected, actual) ?? "(No difference in the dump of the state)"))

        (Expected: −, Actual: +)
        """,
        at: site
      )
    } else if reportsUnchangedState, modify != nil, exhaustivity == .on, expected == previous {
      report(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state \
        is expected, omit the trailing closure.
        """,
        at: site
      )
    }
  }

  func report(_ message: String, at site: CallSite) {
    reportIssue(
      message,
      fileID: site.fileID,
      filePath: site.filePath,
      line: site.line,
      column: site.column
    )
  }

  // A plain deinit runs where the last reference is released, at the end of the test, so the
  // end-of-test checks report into that test (an isolated deinit would lose its task locals).
  deinit {
    MainActor.assumeIsolated { completed() }
  }
}

/// A shorthand for the test store of a reducer's feature.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable

/// Indents every line of a diff by four spaces, as TCA's messages do.
func indent(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false)
    .map { $0.isEmpty ? "" : "    \($0)" }
    .joined(separator: "\n")
}
