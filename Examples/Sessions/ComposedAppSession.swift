import Architecture
import ComposedApp
import Counter
import Recorder

/// A few hundred steps of the composed app: the counter tab through `Scope`, timer rows
/// through `forEach` (one removed while it ticks), and a download through `ifLet`, dismissed
/// once while it runs.
@MainActor
public func recordComposedAppSession(to recorder: TraceRecorder) async {
  let clock = TestClock()
  let store = Store(initialState: AppFeature.State()) {
    AppFeature()
      .recording(to: recorder)
  } withDependencies: {
    $0.continuousClock = clock
    $0.uuid = .incrementing
    $0.numberFact = .liveValue
  }
  let driver = SessionDriver(store: store, clock: clock)

  for round in 0..<9 {
    await driver.send(.tabSelected(.counter))
    for _ in 0..<(4 + round) { await driver.send(.counter(.incrementButtonTapped)) }
    await driver.send(.counter(.factButtonTapped))
    await driver.advance(by: .milliseconds(300)) { !$0.counter.isLoading }

    await driver.send(.tabSelected(.timers))
    await driver.send(.addTimerButtonTapped)
    await driver.send(.addTimerButtonTapped)
    let ids = store.timers.ids.elements.suffix(2)
    for id in ids { await driver.send(.timer(id: id, action: .startButtonTapped)) }
    for _ in 0..<3 { await driver.advance(by: .seconds(1)) }
    // Remove one row while it ticks; stop the other.
    await driver.send(.removeTimerButtonTapped(id: ids.first!))
    await driver.advance(by: .seconds(1))
    await driver.send(.timer(id: ids.last!, action: .stopButtonTapped))

    await driver.send(.downloadButtonTapped)
    await driver.send(.detail(.startButtonTapped))
    if round.isMultiple(of: 2) {
      // Dismiss mid-download: the ifLet cancels the download's effect.
      await driver.advance(by: .seconds(1))
      await driver.advance(by: .seconds(1))
      await driver.send(.dismissDetailButtonTapped)
    } else {
      for _ in 0..<4 { await driver.advance(by: .seconds(1)) }
      await driver.advance(by: .seconds(1)) { $0.detail?.result != nil }
      await driver.send(.dismissDetailButtonTapped)
    }
  }
}
