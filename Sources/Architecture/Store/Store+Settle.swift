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
  /// It waits for events, not by polling: it looks again each time an effect starts or ends,
  /// a batch of actions is reduced, or a sleep on `clock` begins or ends. A task sleeping on
  /// `clock` counts as settled whichever store started it, so give each scripted store a clock
  /// of its own.
  ///
  /// - Parameters:
  ///   - clock: The clock the store's effects sleep on, as its `continuousClock` dependency.
  ///   - condition: A state to wait for as well, such as a response's arrival.
  ///   - timeout: How long to wait, in real time, for a store that does not settle: an effect
  ///     waiting on something that never comes, or on a clock nobody advances.
  /// - Returns: Whether the store settled; `false` when it gave up.
  @discardableResult
  public func settle<Duration>(
    sleepingOn clock: TestClock<Duration>,
    until condition: (State) -> Bool = { _ in true },
    timeout: Swift.Duration = .seconds(30)
  ) async -> Bool {
    await settle(
      timeout: timeout,
      isSettled: { condition(state) && runningEffectCount == clock.sleeperCount },
      clockChanges: { clock.sleeperChanges },
      onClockChange: { clock.onSleeperChange(after: $0, $1) }
    )
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
  ///   - timeout: How long to wait, in real time, for a store that does not settle.
  /// - Returns: Whether the store settled; `false` when it gave up.
  @discardableResult
  public func settle(
    until condition: (State) -> Bool = { _ in true },
    timeout: Swift.Duration = .seconds(30)
  ) async -> Bool {
    await settle(
      timeout: timeout,
      isSettled: { condition(state) && runningEffectCount == 0 },
      clockChanges: { 0 },
      onClockChange: nil
    )
  }

  private func settle(
    timeout: Swift.Duration,
    isSettled: () -> Bool,
    clockChanges: () -> UInt64,
    onClockChange: ((UInt64, @escaping @Sendable () -> Void) -> Void)?
  ) async -> Bool {
    // Read before looking: a sleep that begins after the look still wakes the wait.
    var changes = clockChanges()
    if isSettled() { return true }
    let wait = ChangeWait()
    let deadline = ContinuousClock.now.advanced(by: timeout)
    let timer = Task.detached {
      try? await Task.sleep(until: deadline, clock: .continuous)
      if !Task.isCancelled { wait.timeOut() }
    }
    defer { timer.cancel() }
    while !wait.hasTimedOut {
      // On the main actor from the look to the registration: no change of the store's falls
      // in between, and the clock's count catches a sleep begun since it was read.
      await withUnsafeContinuation { continuation in
        wait.begin(continuation)
        onNextChange { wait.wake() }
        onClockChange?(changes) { wait.wake() }
      }
      changes = clockChanges()
      if isSettled() { return true }
    }
    return isSettled()
  }
}

/// One `settle`'s wait for the next change, which may come from the store (on the main actor),
/// from a clock (on any thread) or from the timeout, in any order and more than once.
// unchecked: `continuation` and `timedOut` are read and written only under `lock`
private final class ChangeWait: @unchecked Sendable {
  private let lock = Lock()
  private var continuation: UnsafeContinuation<Void, Never>?
  private var timedOut = false

  /// Waits in `continuation` until the next `wake`; at once if the timeout has passed.
  func begin(_ continuation: UnsafeContinuation<Void, Never>) {
    let now = lock.withLock {
      guard !timedOut else { return true }
      self.continuation = continuation
      return false
    }
    if now { continuation.resume() }
  }

  /// Resumes the wait in progress, if any. A wake between waits is dropped: the waiter looks
  /// at the store before it waits again.
  func wake() {
    let continuation: UnsafeContinuation<Void, Never>? = lock.withLock {
      defer { self.continuation = nil }
      return self.continuation
    }
    continuation?.resume()
  }

  /// Ends the wait in progress and every later one.
  func timeOut() {
    lock.withLock { timedOut = true }
    wake()
  }

  var hasTimedOut: Bool { lock.withLock { timedOut } }
}
