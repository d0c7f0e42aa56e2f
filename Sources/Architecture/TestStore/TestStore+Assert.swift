extension TestStore {
  /// Asserts the store's current state: `updateStateToExpectedResult` gets the state as of the
  /// last assertion and must change it into the current state.
  ///
  /// Useful for state that changed outside an asserted action, such as after skipping received
  /// actions with exhaustivity off:
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(.refresh)
  /// await store.skipReceivedActions()
  /// store.assert {
  ///   $0.items = [.sample]
  /// }
  /// ```
  ///
  /// A mismatch is reported as `send` reports one. Unlike `send`, a closure that changes
  /// nothing is not reported. With exhaustivity off, only what the closure changes is checked.
  public func assert(
    _ updateStateToExpectedResult: @escaping (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let actual = core.state
    expectState(
      from: assertedState,
      toBecome: actual,
      by: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      reportsUnchangedState: false
    )
    assertedState = actual
  }
}
