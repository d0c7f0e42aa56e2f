import Architecture
import Counter
import Recorder

/// A few hundred steps of the counter: counting, facts (some of them failing), the timer and
/// resets, on a test clock so the session replays the same way every time.
@MainActor
public func recordCounterSession(to recorder: TraceRecorder) async {
  let clock = TestClock()
  let store = Store(initialState: CounterFeature.State()) {
    CounterFeature()
      .recording(to: recorder)
  } withDependencies: {
    $0.continuousClock = clock
    $0.numberFact = .liveValue
  }
  let driver = SessionDriver(store: store, clock: clock)

  for round in 0..<12 {
    for _ in 0..<(3 + round % 4) { await driver.send(.incrementButtonTapped) }
    await driver.send(.decrementButtonTapped)
    await fetchFact(driver)

    // Run the timer for a few ticks, then stop it.
    let timer = driver.start(.toggleTimerButtonTapped)
    for _ in 0..<(2 + round % 3) {
      let count = store.count
      await driver.advance(by: .seconds(1)) { $0.count == count + 1 }
    }
    await driver.send(.toggleTimerButtonTapped)
    await timer.finish()

    if round % 4 == 3 {
      // Below zero, where the fact source has nothing to say.
      for _ in 0..<(store.count + 2) { await driver.send(.decrementButtonTapped) }
      await fetchFact(driver)
      await driver.send(.resetButtonTapped)
    }
  }
}

@MainActor
private func fetchFact(_ driver: SessionDriver<CounterFeature.State, CounterFeature.Action>) async {
  let task = driver.start(.factButtonTapped)
  await driver.advance(by: .milliseconds(300)) { !$0.isLoading }
  await task.finish()
}
