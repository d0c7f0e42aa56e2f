import Architecture
import Foundation

/// Drives a store as a person would, one action at a time, waiting before the next until every
/// effect the last one started has finished or sleeps on the test clock.
///
/// Waiting by the store's effect count, never by time, is what makes a session deterministic.
@MainActor
final class LongSessionDriver<State, Action> {
  let store: Store<State, Action>
  let clock: TestClock<Duration>
  /// A seeded generator: the same session on every run.
  var random: SeededRandom

  init(store: Store<State, Action>, clock: TestClock<Duration>, seed: UInt64) {
    self.store = store
    self.clock = clock
    random = SeededRandom(seed: seed)
  }

  var state: State { store.state }

  /// Sends `action` and waits until its effects have finished or sleep on the clock.
  func send(_ action: Action) async {
    store.send(action)
    await settle()
  }

  /// Moves the clock on by `duration`, a second at most at a time, settling in between, so
  /// timers tick one by one.
  func advance(by duration: Duration) async {
    await settle()
    var left = duration
    while left > .zero {
      let step = min(left, .seconds(1))
      await clock.advance(by: step)
      await settle()
      left -= step
    }
  }

  /// Yields until every running effect is asleep on the clock (or none is left).
  func settle() async {
    for _ in 0..<200_000 {
      if store.runningEffectCount == clock.sleeperCount { return }
      await Task.yield()
    }
    preconditionFailure("A long session's effects never settled.")
  }

  /// A number in `range`, from the session's seed.
  func next(_ range: Range<Int>) -> Int { random.next(range) }

  /// Whether an event with this chance happens, from the session's seed.
  func chance(_ percent: Int) -> Bool { random.next(0..<100) < percent }
}

/// SplitMix64: a small generator whose sequence depends only on its seed.
public struct SeededRandom {
  private var state: UInt64

  /// A generator whose numbers follow from `seed` alone.
  public init(seed: UInt64) { state = seed }

  /// The next number, in `range`.
  public mutating func next(_ range: Range<Int>) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return range.lowerBound + Int(z % UInt64(range.count))
  }
}

/// A date generator that moves on a second each time it is read, as a wall clock would
/// between a person's taps.
func tickingDate() -> DateGenerator {
  let ticks = LockIsolated(0)
  return DateGenerator {
    ticks.withValue { ticks in
      ticks += 1
      return Date(timeIntervalSince1970: 1_800_000_000 + Double(ticks))
    }
  }
}
