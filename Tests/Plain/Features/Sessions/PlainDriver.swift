import Architecture

/// Drives a store the way a person would, one action at a time, waiting before the next until
/// every effect the last one started has finished or is asleep on the test clock.
///
/// Waiting is what makes a session deterministic: nothing is left half done when the next
/// action is sent, so the same script reduces the same actions in the same order.
@MainActor
final class PlainDriver<State, Action> {
  let store: Store<State, Action>
  let clock: TestClock<Duration>
  /// What the session waited for and never saw; empty when the session completed.
  private(set) var stalls: [String] = []

  init(store: Store<State, Action>, clock: TestClock<Duration>) {
    self.store = store
    self.clock = clock
  }

  var state: State { store.state }

  /// Sends `action` and waits until its effects have finished or sleep on the clock.
  func send(_ action: Action) async {
    store.send(action)
    await settle()
  }

  /// Moves the clock on by `duration`, `step` at most at a time, settling in between, so a
  /// timer's ticks are reduced one by one.
  func advance(by duration: Duration, step: Duration = .seconds(1)) async {
    await settle()
    var left = duration
    while left > .zero {
      let step = min(left, step)
      await clock.advance(by: step)
      await settle()
      left -= step
    }
  }

  /// Yields until every running effect is asleep on the clock (or none is left).
  func settle(file: StaticString = #fileID, line: UInt = #line) async {
    for _ in 0..<200_000 {
      if store.runningEffectCount == clock.sleeperCount { return }
      await Task.yield()
    }
    stalls.append("\(file):\(line): effects never settled")
  }
}
