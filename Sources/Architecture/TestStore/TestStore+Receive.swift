extension TestStore where Action: Equatable {
  /// Asserts that an effect sent `expectedAction` next, and the state it led to.
  ///
  /// Waits up to `timeout` (the store's ``TestStore/timeout`` by default) for the action.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: { $0 == expectedAction },
      describe: { received in
        """
        Received unexpected action: …

        \(indent(diff(expectedAction, received) ?? customDump(received)))

        (Expected: −, Received: +)
        """
      },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension TestStore {
  /// Asserts that the next action an effect sent satisfies `isMatching`, and the state it led
  /// to.
  public func receive(
    _ isMatching: @escaping (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: isMatching,
      describe: { received in
        """
        Received action without a match: …

        \(indent(customDump(received)))
        """
      },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that the next action an effect sent is of the case `actionCase`, and the state
  /// it led to.
  ///
  /// ```swift
  /// await store.receive(/CounterFeature.Action.factResponse) {
  ///   $0.isLoading = false
  /// }
  /// ```
  public func receive<Value>(
    _ actionCase: AnyCasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      { actionCase.extract(from: $0) != nil },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      fileID: fileID,
      file: filePath,
      line: line,
      column: column
    )
  }

  private func receiveAction(
    matching isMatching: (Action) -> Bool,
    describe: (Action) -> String,
    timeout: Duration?,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at site: CallSite
  ) async {
    let timeout = timeout ?? self.timeout
    reducer.location = site
    let matches: () -> Bool = { [reducer, exhaustivity] in
      switch exhaustivity {
      case .on: !reducer.received.isEmpty
      case .off: reducer.received.contains { isMatching($0.action) }
      }
    }
    guard await waitUntil(timeout: timeout, matches) else {
      report(
        "Expected to receive an action, but received none after \(timeout.secondsDescription) "
          + "seconds.",
        at: site
      )
      return
    }
    if exhaustivity != .on {
      // Skip what the test chose not to assert.
      while let first = reducer.received.first, !isMatching(first.action) {
        assertedState = first.state
        reducer.received.removeFirst()
      }
    }
    let received = reducer.received.removeFirst()
    if !isMatching(received.action) {
      report(describe(received.action), at: site)
    }
    expectState(
      from: assertedState, toBecome: received.state, by: updateStateToExpectedResult, at: site,
      stackElementIDs: received.stackElementIDs
    )
    assertedState = received.state
    for _ in 0..<20 { await Task.yield() }
  }
}
