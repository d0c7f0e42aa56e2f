extension Store {
  /// Waits until every effect the store is running has finished or is asleep on `clock`.
  ///
  /// For scripts that drive a store as a person would, such as a session recorded to a trace:
  /// waiting after each action leaves nothing half done when the next one is sent, so the same
  /// script records the same trace whatever the scheduler does.
  ///
  /// ```swift
  /// store.send(.queryChanged("Lyo"))
  /// await store.settle(sleepingOn: clock)  // the debounce sleeps on the clock
  /// await clock.advance(by: .milliseconds(300))
  /// await store.settle(sleepingOn: clock)  // the search ran and its response was reduced
  /// ```
  ///
  /// It yields between looks rather than waiting for a time. A task sleeping on `clock` counts
  /// as settled whichever store started it, so give each scripted store a clock of its own.
  ///
  /// - Parameters:
  ///   - clock: The clock the store's effects sleep on, as its `continuousClock` dependency.
  ///   - condition: A state to wait for as well, such as a response's arrival.
  ///   - maximumTurns: How many times to yield before giving up.
  /// - Returns: Whether the store settled; `false` when it gave up.
  @discardableResult
  public func settle<Duration>(
    sleepingOn clock: TestClock<Duration>,
    until condition: (State) -> Bool = { _ in true },
    maximumTurns: Int = 1_000_000
  ) async -> Bool {
    await settle(maximumTurns: maximumTurns) {
      condition(state) && runningEffectCount == clock.sleeperCount
    }
  }

  /// Waits until every effect the store is running has finished.
  ///
  /// ```swift
  /// store.send(.refreshButtonTapped)
  /// await store.settle()  // the refresh's response was reduced
  /// ```
  ///
  /// - Parameters:
  ///   - condition: A state to wait for as well.
  ///   - maximumTurns: How many times to yield before giving up.
  /// - Returns: Whether the store settled; `false` when it gave up.
  @discardableResult
  public func settle(
    until condition: (State) -> Bool = { _ in true }, maximumTurns: Int = 1_000_000
  ) async -> Bool {
    await settle(maximumTurns: maximumTurns) { condition(state) && runningEffectCount == 0 }
  }

  private func settle(maximumTurns: Int, isSettled: () -> Bool) async -> Bool {
    for _ in 0..<maximumTurns {
      if isSettled() { return true }
      await Task.yield()
    }
    return isSettled()
  }
}
