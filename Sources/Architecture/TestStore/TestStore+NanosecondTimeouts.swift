// TCA 1.x takes timeouts in nanoseconds as well as as a `Duration`; tests written against the
// older form, such as `timeout: 5 * NSEC_PER_SEC`, compile unchanged with these.

extension TestStore where Action: Equatable {
  /// Asserts that an effect sent `expectedAction` next, waiting up to `nanoseconds` for it.
  ///
  /// ```swift
  /// await store.receive(.timerTicked, timeout: 2_000_000_000) {
  ///   $0.secondsElapsed = 1
  /// }
  /// ```
  @_disfavoredOverload
  public func receive(
    _ expectedAction: Action,
    timeout nanoseconds: UInt64,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      expectedAction,
      timeout: .nanoseconds(nanoseconds),
      assert: updateStateToExpectedResult,
      fileID: fileID,
      file: filePath,
      line: line,
      column: column
    )
  }
}

extension TestStore {
  /// Asserts that the next action an effect sent satisfies `isMatching`, waiting up to
  /// `nanoseconds` for it.
  @_disfavoredOverload
  public func receive(
    _ isMatching: @escaping (_ action: Action) -> Bool,
    timeout nanoseconds: UInt64,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      isMatching,
      timeout: .nanoseconds(nanoseconds),
      assert: updateStateToExpectedResult,
      fileID: fileID,
      file: filePath,
      line: line,
      column: column
    )
  }

  /// Asserts that the next action an effect sent is of the case `actionCase`, waiting up to
  /// `nanoseconds` for it.
  @_disfavoredOverload
  public func receive<Value>(
    _ actionCase: AnyCasePath<Action, Value>,
    timeout nanoseconds: UInt64,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      actionCase,
      timeout: .nanoseconds(nanoseconds),
      assert: updateStateToExpectedResult,
      fileID: fileID,
      file: filePath,
      line: line,
      column: column
    )
  }

  /// Waits up to `nanoseconds` for every running effect to finish, reporting an issue if some
  /// are still running.
  @_disfavoredOverload
  public func finish(
    timeout nanoseconds: UInt64,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await finish(
      timeout: .nanoseconds(nanoseconds), fileID: fileID, file: filePath, line: line,
      column: column
    )
  }
}
