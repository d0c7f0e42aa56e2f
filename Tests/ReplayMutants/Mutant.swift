import Architecture
import Bookshelf
import ComposedApp
import Counter
import Foundation
import Recorder
import Todos

/// Deliberately changed example reducers, for proving that a replay catches a change at the
/// right step with the right paths, through the library and through a replay host.
///
/// Each mutant is today's example reducer plus one small change, with the example's `State`
/// and `Action`, so it replays the example's trace: what a developer's refactor would look like
/// to `tca-replay`.
public enum Mutant: String, CaseIterable, Sendable {
  /// The composed app's timer rows (a `forEach` child) count two seconds per tick.
  case timerOffByOne = "timer-off-by-one"
  /// The todos app forgets to set `lastSavedAt` when a save finishes.
  case savedDateDropped = "saved-date-dropped"
  /// The counter shows a failed fact request's message as the fact, not as the error.
  case factFailureAsFact = "fact-failure-as-fact"
  /// The counter force-unwraps the fact when a request fails, while it is `nil`: a reducer that
  /// traps at step 77 of `Traces/counter.ndjson`, its first failed request.
  case crash
  /// The counter never returns from its first action: a host that hangs.
  case hang
  /// The counter, unchanged, taking 40 ms a step: a host that is slow but working.
  case slow
  /// The pantry force-unwraps the stock of the item used, and traps at step 3 of
  /// ``PantryFeature/session``: a reducer that crashes mid-trace, at a known step.
  case pantryForceUnwrap = "pantry-force-unwrap"
  /// The counter, unchanged in what it computes, reading its number fact client while
  /// reducing: a host that does not pin the client is told so, with no divergence.
  case clientRead = "client-read"
  /// ``clientRead``, in a host that pins the client with `ReplayTarget(withDependencies:)`.
  case clientPinned = "client-pinned"
  /// No change: the examples and the pantry as they are.
  case unchanged

  /// The trace in `Traces/` this mutant replays.
  public var traceName: String {
    switch self {
    case .timerOffByOne: "composed-app.ndjson"
    case .savedDateDropped: "todos.ndjson"
    case .factFailureAsFact, .crash, .hang, .slow, .clientRead, .clientPinned: "counter.ndjson"
    // Recorded by the tests that use it: the examples have no pantry.
    case .pantryForceUnwrap, .unchanged: "pantry.ndjson"
    }
  }

  /// The examples' replay targets, with this mutant in place of the reducer it changes.
  public var targets: [ReplayTarget] {
    let counter: ReplayTarget
    switch self {
    case .factFailureAsFact: counter = ReplayTarget(FactFailureAsFact())
    case .crash: counter = ReplayTarget(CrashingCounter())
    case .hang: counter = ReplayTarget(HangingCounter())
    case .slow: counter = ReplayTarget(SlowCounter())
    case .clientRead: counter = ReplayTarget(ClientReadingCounter())
    case .clientPinned:
      counter = ReplayTarget(ClientReadingCounter()) {
        $0.numberFact = NumberFactClient { "\($0) is pinned." }
      }
    default: counter = ReplayTarget(CounterFeature())
    }
    return [
      counter,
      self == .savedDateDropped ? ReplayTarget(SavedDateDropped()) : ReplayTarget(TodosFeature()),
      self == .timerOffByOne ? ReplayTarget(TimerOffByOne()) : ReplayTarget(AppFeature()),
      ReplayTarget(BookshelfFeature()),
      self == .pantryForceUnwrap
        ? ReplayTarget(PantryForceUnwrap()) : ReplayTarget(PantryFeature()),
    ]
  }
}

/// ``Mutant/timerOffByOne``: an off-by-one in a child feature.
public struct TimerOffByOne: Reducer, Sendable {
  public init() {}
  public var body: some ReducerOf<AppFeature> {
    AppFeature()
    Reduce { state, action in
      if case let .timer(id, .tick) = action { state.timers[id: id]?.secondsElapsed += 1 }
      return .none
    }
  }
}

/// ``Mutant/savedDateDropped``: a dropped field update.
public struct SavedDateDropped: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout TodosFeature.State, action: TodosFeature.Action
  ) -> Effect<TodosFeature.Action> {
    let lastSavedAt = state.lastSavedAt
    let effect = TodosFeature().reduce(into: &state, action: action)
    if action == .saved { state.lastSavedAt = lastSavedAt }
    return effect
  }
}

/// ``Mutant/factFailureAsFact``: an effect's response handled differently.
public struct FactFailureAsFact: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout CounterFeature.State, action: CounterFeature.Action
  ) -> Effect<CounterFeature.Action> {
    let effect = CounterFeature().reduce(into: &state, action: action)
    if case let .factRequestFailed(message) = action {
      state.factError = nil
      state.fact = message
    }
    return effect
  }
}

/// ``Mutant/crash``.
public struct CrashingCounter: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout CounterFeature.State, action: CounterFeature.Action
  ) -> Effect<CounterFeature.Action> {
    let effect = CounterFeature().reduce(into: &state, action: action)
    if case let .factRequestFailed(message) = action {
      state.factError = message + " (after \(state.fact!))"
    }
    return effect
  }
}

/// ``Mutant/hang``.
public struct HangingCounter: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout CounterFeature.State, action: CounterFeature.Action
  ) -> Effect<CounterFeature.Action> {
    while true { sleep(60) }
  }
}

/// ``Mutant/slow``.
public struct SlowCounter: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout CounterFeature.State, action: CounterFeature.Action
  ) -> Effect<CounterFeature.Action> {
    usleep(40_000)
    return CounterFeature().reduce(into: &state, action: action)
  }
}

/// ``Mutant/clientRead``: the counter, reading its number fact client while it reduces, as a
/// reducer that captures a client for its effect does.
public struct ClientReadingCounter: Reducer, Sendable {
  @Dependency(\.numberFact) var numberFact
  public init() {}
  public func reduce(
    into state: inout CounterFeature.State, action: CounterFeature.Action
  ) -> Effect<CounterFeature.Action> {
    _ = numberFact
    return CounterFeature().reduce(into: &state, action: action)
  }
}
