import Architecture

@testable import Shapes

// `BrewTimerFeature` with one bug each in its effects, never in its state: only a test that
// runs the effects can tell them from the original.

/// Never starts the debounced save of the notes.
struct BrewDroppingSave: Reducer {
  typealias State = BrewTimerFeature.State
  typealias Action = BrewTimerFeature.Action

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effect = BrewTimerFeature().reduce(into: &state, action: action)
    if case .notesChanged = action { return .none }
    return effect
  }
}

/// Starts a save per edit without cancelling the one in flight: every edit gets saved.
struct BrewSavingWithoutCancelInFlight: Reducer {
  typealias State = BrewTimerFeature.State
  typealias Action = BrewTimerFeature.Action

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effect = BrewTimerFeature().reduce(into: &state, action: action)
    guard case let .notesChanged(notes) = action else { return effect }
    return .run { send in
      try await clock.sleep(for: .milliseconds(500))
      await send(.notesSaved(notes))
    }
    .cancellable(id: BrewTimerFeature.CancelID.save)
  }
}

/// Stops by cancelling the save's id instead of the timer's: the timer keeps ticking.
struct BrewStoppingWrongID: Reducer {
  typealias State = BrewTimerFeature.State
  typealias Action = BrewTimerFeature.Action

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effect = BrewTimerFeature().reduce(into: &state, action: action)
    guard case .stopTapped = action else { return effect }
    return .cancel(id: BrewTimerFeature.CancelID.save)
  }
}

/// Reads the date twice when the brew starts, and keeps the second reading.
struct BrewReadingDateTwice: Reducer {
  typealias State = BrewTimerFeature.State
  typealias Action = BrewTimerFeature.Action

  @Dependency(\.date.now) var now

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effect = BrewTimerFeature().reduce(into: &state, action: action)
    if case .startTapped = action { state.startedAt = now }
    return effect
  }
}

/// Ticks every two seconds instead of every second.
struct BrewTickingEveryTwoSeconds: Reducer {
  typealias State = BrewTimerFeature.State
  typealias Action = BrewTimerFeature.Action

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effect = BrewTimerFeature().reduce(into: &state, action: action)
    guard case .startTapped = action else { return effect }
    return .run { send in
      for await _ in clock.timer(interval: .seconds(2)) { await send(.tick) }
    }
    .cancellable(id: BrewTimerFeature.CancelID.brew)
  }
}

/// `NewsletterSignupFeature` with a bug where no address is involved: topics are stored in
/// capitals. A generated test of a redacted trace must still catch it.
struct NewsletterUppercasingTopics: Reducer {
  typealias State = NewsletterSignupFeature.State
  typealias Action = NewsletterSignupFeature.Action

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case let .topicToggled(topic) = action else {
      return NewsletterSignupFeature().reduce(into: &state, action: action)
    }
    return NewsletterSignupFeature().reduce(into: &state, action: .topicToggled(topic.uppercased()))
  }
}
