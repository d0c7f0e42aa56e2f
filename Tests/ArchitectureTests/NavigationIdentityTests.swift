import Architecture
import Testing

@testable import Architecture

/// A recorder that runs until told to stop, where the stop comes from one of its own effects:
/// the shape of VoiceMemos' recording memo.
private struct Recording: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var seconds = 0
    var isFinished = false
  }
  enum Action: Equatable {
    case finished, startButtonTapped, tick
  }
  enum CancelID { case timer }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        return .merge(
          .run { send in
            for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
          }
          .cancellable(id: CancelID.timer),
          .run { send in
            try await clock.sleep(for: .seconds(2))
            await send(.finished)
          }
        )
      case .tick:
        state.seconds += 1
        return .none
      case .finished:
        state.isFinished = true
        return .cancel(id: CancelID.timer)
      }
    }
  }
}

/// Every kind of child the runtime identifies: a sheet (`ifLet` over `PresentationState`), a
/// plain optional child, a stack, and an enum case.
private struct Studio: Reducer {
  struct State: Equatable {
    @PresentationState var destination: Destination.State?
    var recording: Recording.State?
    var path = StackState<Recording.State>()
    var mode = Mode.idle
    @PresentationState var alert: AlertState<Action.Alert>?
  }
  enum Mode: Equatable {
    case idle
    case live(Recording.State)
  }
  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case destination(PresentationAction<Destination.Action>)
    case mode(ModeFeature.Action)
    case path(StackAction<Recording.State, Recording.Action>)
    case recording(Recording.Action)
    case warnButtonTapped

    enum Alert: Equatable { case again, ok }
  }
  struct Destination: Reducer {
    enum State: Equatable { case take(Recording.State) }
    enum Action: Equatable { case take(Recording.Action) }
    var body: some ReducerOf<Self> {
      Scope(state: /State.take, action: /Action.take) { Recording() }
    }
  }

  /// The enum `mode`, whose `live` case runs a recording.
  struct ModeFeature: Reducer {
    typealias State = Mode
    enum Action: Equatable { case live(Recording.Action) }
    var body: some ReducerOf<Self> {
      Reduce { _, _ in .none }
        .ifCaseLet(/State.live, action: /Action.live) { Recording() }
    }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: /Action.mode) { ModeFeature() }
    Reduce { state, action in
      if action == .warnButtonTapped {
        state.alert = AlertState { TextState("Careful") } actions: {
          ButtonState(action: .again) { TextState("Again") }
        }
      } else if action == .alert(.presented(.again)) {
        state.alert = AlertState { TextState("Sure?") } actions: {
          ButtonState(action: .ok) { TextState("Yes") }
        }
      }
      return .none
    }
    .ifLet(\.$destination, action: /Action.destination) { Destination() }
    .ifLet(\.recording, action: /Action.recording) { Recording() }
    .forEach(\.path, action: /Action.path) { Recording() }
    .ifLet(\.$alert, action: /Action.alert)
  }
}

@MainActor
@Suite("Navigation identity: effect actions reduce at the root, ids print by name")
struct NavigationIdentityTests {
  @Test(
    "an action a child's effect sends is reduced at the root, so its .cancel(id:) reaches the child's effect",
    arguments: ["sheet", "optional", "stack", "case"])
  func effectActionCancelsChildEffect(kind: String) async {
    let clock = TestClock()
    var state = Studio.State()
    let start: Studio.Action
    let finished: Studio.Action
    switch kind {
    case "sheet":
      state.destination = .take(Recording.State(id: 1))
      start = .destination(.presented(.take(.startButtonTapped)))
      finished = .destination(.presented(.take(.finished)))
    case "optional":
      state.recording = Recording.State(id: 1)
      start = .recording(.startButtonTapped)
      finished = .recording(.finished)
    case "stack":
      state.path.append(Recording.State(id: 1))
      start = .path(.element(id: state.path.ids[0], action: .startButtonTapped))
      finished = .path(.element(id: state.path.ids[0], action: .finished))
    default:
      state.mode = .live(Recording.State(id: 1))
      start = .mode(.live(.startButtonTapped))
      finished = .mode(.live(.finished))
    }
    let store = TestStore(initialState: state) { Studio() } withDependencies: {
      $0.continuousClock = clock
    }
    store.exhaustivity = .off
    await store.send(start)
    await clock.advance(by: .seconds(2))
    await store.receive(finished)
    // Before the fix, the timer ran on: the cancellation was made under the effect's path.
    await clock.advance(by: .seconds(5))
    #expect(store.core.state.isTimerStopped)
  }

  @Test("cancellation ids name key paths and cases, never a memory address")
  func idsPrintByName() {
    var state = Studio.State()
    state.destination = .take(Recording.State(id: 7))
    state.path.append(Recording.State(id: 1))
    state.mode = .live(Recording.State(id: 2))
    state.recording = Recording.State(id: 3)
    let reducer = Studio()
    func cancellable(_ action: Studio.Action) -> [String] {
      reducer.reduce(into: &state, action: action).cancellation.cancellable
    }
    let timer = "ArchitectureTests.Recording.CancelID.timer"
    #expect(
      cancellable(.destination(.presented(.take(.startButtonTapped))))
        == ["\\State.$destination.take(id: 7)", "\\State.$destination.take(id: 7) / \(timer)"])
    #expect(
      cancellable(.recording(.startButtonTapped))
        == ["\\State.recording", "\\State.recording / \(timer)"])
    let element = state.path.ids[0]
    #expect(
      cancellable(.path(.element(id: element, action: .startButtonTapped)))
        == ["\\State.path[id: \(element)]", "\\State.path[id: \(element)] / \(timer)"])
    #expect(
      cancellable(.mode(.live(.startButtonTapped)))
        == ["Mode.live(id: 2)", "Mode.live(id: 2) / \(timer)"])
    let dismissal = reducer.reduce(into: &state, action: .destination(.dismiss))
    #expect(dismissal.cancellation.cancels == ["\\State.$destination.take(id: 7)"])
  }

  @Test("a computed key path is named by the property wrapper it projects, or by its type")
  func keyPathNames() {
    struct Holder {
      @PresentationState var one: Int?
      @PresentationState var two: String?
      @PresentationState var three: String?
      var plain = 0
      var computed: Int { plain }
    }
    #expect(StableNames.name(of: \Holder.$one) == "\\Holder.$one")
    #expect(StableNames.name(of: \Holder.plain) == "\\Holder.plain")
    // Two wrappers of one type: the projection cannot be told apart by type.
    #expect(
      StableNames.name(of: \Holder.$two)
        == "\\Holder.<computed PresentationState<String>>")
    #expect(StableNames.name(of: \Holder.computed) == "\\Holder.<computed Int>")
  }

  @Test("a new alert set while handling the old alert's button stays presented")
  func newAlertFromAlertButton() async {
    let store = TestStore(initialState: Studio.State()) { Studio() }
    await store.send(.warnButtonTapped) {
      $0.alert = AlertState { TextState("Careful") } actions: {
        ButtonState(action: .again) { TextState("Again") }
      }
    }
    await store.send(.alert(.presented(.again))) {
      $0.alert = AlertState { TextState("Sure?") } actions: {
        ButtonState(action: .ok) { TextState("Yes") }
      }
    }
    await store.send(.alert(.presented(.ok))) { $0.alert = nil }
  }

  @Test("an id need only be Hashable, as in TCA")
  func hashableOnlyID() async {
    final class Token: Hashable {
      let name: String
      init(_ name: String) { self.name = name }
      static func == (lhs: Token, rhs: Token) -> Bool { lhs.name == rhs.name }
      func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }
    // A class that is not Sendable: the call compiling is half of the test.
    let effect = Effect<Int>.run { _ in }.cancellable(id: Token("a"))
    let cancel = Effect<Int>.cancel(id: Token("a"))
    #expect(effect.cancellation.cancellable == cancel.cancellation.cancels)
    #expect(effect.cancellation.cancellable.count == 1)
  }
}

extension Studio.State {
  /// Whether no recording anywhere in the tree is still ticking: each started with 0 seconds
  /// and finished after 2, so more than 2 ticks means its timer outlived `.finished`.
  fileprivate var isTimerStopped: Bool {
    var recordings: [Recording.State] = Array(path)
    if case .take(let take)? = destination { recordings.append(take) }
    if let recording { recordings.append(recording) }
    if case .live(let live) = mode { recordings.append(live) }
    return recordings.allSatisfy { $0.isFinished && $0.seconds <= 2 }
  }
}
