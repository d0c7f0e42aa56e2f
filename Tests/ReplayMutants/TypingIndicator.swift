import Architecture
import Foundation
import Recorder

/// A chat composer's typing indicator: each keystroke shows "typing…" and restarts a debounce
/// on the clock that hides it, sending a message cancels it, and peers' typing arrives from
/// outside. No `Codable`: written as a TCA user writes it. A shape no example has, for
/// `shrink`'s effect-only and effect-crash cases.
public struct TypingIndicator: Reducer, Sendable {
  public struct State: Equatable, Sendable {
    public var draft = ""
    public var isTyping = false
    public var sent: [String] = []
    public var typingPeers: [String: Int] = [:]
    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case draftChanged(String)
    case typingStopped
    case sendTapped
    case peerTyped(String)
  }

  enum CancelID { case typing }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(into: &state, action: action, cancelsInFlight: true)
  }

  /// The reducer, with the debounce cancelling the one in flight or not.
  func reduce(
    into state: inout State, action: Action, cancelsInFlight: Bool
  ) -> Effect<Action> {
    switch action {
    case let .draftChanged(text):
      state.draft = text
      state.isTyping = !text.isEmpty
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(2))
        await send(.typingStopped)
      }
      .cancellable(id: CancelID.typing, cancelInFlight: cancelsInFlight)
    case .typingStopped:
      state.isTyping = false
      return .none
    case .sendTapped:
      guard !state.draft.isEmpty else { return .none }
      state.sent.append(state.draft)
      state.draft = ""
      state.isTyping = false
      return .cancel(id: CancelID.typing)
    case let .peerTyped(name):
      state.typingPeers[name, default: 0] += 1
      return .none
    }
  }

  /// A session of about `steps` sent actions: words typed a letter at a time, pauses long
  /// enough for the debounce to fire now and then, messages sent, peers typing.
  static func session(steps: Int) -> [(action: Action, pause: Bool)] {
    var random = SplitMix(seed: 0x7E1E7)
    var session: [(Action, Bool)] = []
    var draft = ""
    while session.count < steps {
      switch random.below(8) {
      case 0: session.append((.peerTyped(["ana", "bo", "cy"][random.below(3)]), false))
      case 1:
        session.append((.sendTapped, false))
        draft = ""
      default:
        draft.append(Character(UnicodeScalar(UInt8(97 + random.below(26)))))
        session.append((.draftChanged(draft), random.below(4) == 0))
      }
    }
    return session
  }

  /// Records ``session(steps:)`` through `reducer` into `path` on a store with a test clock,
  /// advancing it after some keystrokes so that the debounce fires; waits for effects between
  /// actions, so the trace is the same on every run.
  @MainActor
  public static func recordSession<Base: Reducer & Sendable>(
    through reducer: Base, steps: Int, to path: String
  ) async throws where Base.State == State, Base.Action == Action {
    let recorder = try TraceRecorder(path: path)
    let clock = TestClock()
    let store = Store(initialState: State()) {
      reducer.recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
    }
    for (action, pause) in session(steps: steps) {
      store.send(action)
      await store.settle(sleepingOn: clock)
      if pause {
        await clock.advance(by: .seconds(3))
        await store.settle(sleepingOn: clock)
      }
    }
    try recorder.close()
  }
}

/// ``TypingIndicator`` after a refactor that dropped `cancelInFlight` from the debounce: the
/// state is the same at every step, but each keystroke starts another timer without cancelling
/// the last. Only the effects differ.
public struct TypingIndicatorNoCancelInFlight: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout TypingIndicator.State, action: TypingIndicator.Action
  ) -> Effect<TypingIndicator.Action> {
    TypingIndicator().reduce(into: &state, action: action, cancelsInFlight: false)
  }
}

/// ``TypingIndicator`` after a refactor that assumes the debounce only fires on an unsent
/// draft once a message went out: it traps when the debounce's `.typingStopped` arrives with
/// two messages sent and a draft of at least three letters. The crashing action comes from an
/// effect.
public struct TypingIndicatorStopTrap: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout TypingIndicator.State, action: TypingIndicator.Action
  ) -> Effect<TypingIndicator.Action> {
    if action == .typingStopped, state.sent.count >= 2, state.draft.count >= 3 {
      let last = state.sent.first(where: \.isEmpty)!
      state.draft = last
    }
    return TypingIndicator().reduce(into: &state, action: action)
  }
}
