import Architecture

/// Drives a store through a scripted session the way a person would, one action at a time,
/// waiting for the effects each action starts to play out, or to fall asleep on the clock,
/// before the next.
///
/// Waiting makes a session reproducible: the same script records the same trace, whatever the
/// scheduler does, because nothing is left running when the next action is sent.
@MainActor
public struct SessionDriver<State, Action> {
  public let store: Store<State, Action>
  public let clock: TestClock<Duration>

  public init(store: Store<State, Action>, clock: TestClock<Duration>) {
    self.store = store
    self.clock = clock
  }

  /// Sends `action` and waits until the effects it started have finished or are asleep on
  /// the clock.
  public func send(_ action: Action) async {
    store.send(action)
    await settle()
  }

  /// Sends `action` without waiting: for long-living effects such as timers.
  @discardableResult
  public func start(_ action: Action) -> StoreTask {
    store.send(action)
  }

  /// Waits for an effect to sleep on the clock, moves the clock forward, then waits until
  /// `condition` holds for the store's state.
  public func advance(
    by duration: Duration, until condition: (State) -> Bool = { _ in true }
  ) async {
    await settle()
    await clock.advance(by: duration)
    await settle(until: condition)
  }

  /// Yields until `condition` holds and every running effect is asleep on the clock, so
  /// nothing is left half done; gives up after a generous number of turns.
  public func settle(until condition: (State) -> Bool = { _ in true }) async {
    let start = ContinuousClock.now
    guard await store.settle(sleepingOn: clock, until: condition) else {
      fatalError(
        "A scripted session waited for a state that never came (\(start.duration(to: .now)), "
          + "\(store.runningEffectCount) effects, \(clock.sleeperCount) asleep, "
          + "condition \(condition(store.state))).")
    }
  }
}
