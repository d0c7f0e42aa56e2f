import Architecture
import Testing

/// A screen of a drill-down: counts on a clock, and can close itself.
private struct Screen: Reducer {
  struct State: Equatable, Codable {
    var title: String
    var seconds = 0
  }
  enum Action: Equatable, Codable {
    case startTimer, tick, doneButtonTapped
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startTimer:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.seconds += 1
        return .none
      case .doneButtonTapped:
        return .run { _ in await dismiss() }
      }
    }
  }
}

private struct Browser: Reducer {
  struct State: Equatable {
    var path = StackState<Screen.State>()
    var popped: [String] = []
  }
  enum Action: Equatable {
    case open(String)
    case path(StackAction<Screen.State, Screen.Action>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .open(title):
        state.path.append(Screen.State(title: title))
        return .none
      case let .path(.popFrom(id)):
        if let screen = state.path[id: id] { state.popped.append(screen.title) }
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: /Action.path) {
      Screen()
    }
  }
}

@MainActor
@Suite("Stack navigation: StackState, StackAction, forEach(\\.path)")
struct StackNavigationTests {
  @Test("pushes get ids 0, 1, 2…, and a test can append to the expected state")
  func pushIDs() async {
    let store = TestStore(initialState: Browser.State()) { Browser() }
    await store.send(.open("A")) { $0.path.append(Screen.State(title: "A")) }
    await store.send(.open("B")) { $0.path[id: 1] = Screen.State(title: "B") }
    #expect(store.state.path.ids == [0, 1])
  }

  @Test("an element action reaches its element only")
  func elementAction() async {
    let store = TestStore(initialState: Browser.State()) { Browser() }
    await store.send(.open("A")) { $0.path.append(Screen.State(title: "A")) }
    await store.send(.open("B")) { $0.path.append(Screen.State(title: "B")) }
    await store.send(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.seconds = 1 }
  }

  @Test("popFrom runs the parent first, pops what is above, and cancels the popped effects")
  func popCancels() async {
    let clock = TestClock()
    let store = TestStore(initialState: Browser.State()) { Browser() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.open("A")) { $0.path.append(Screen.State(title: "A")) }
    await store.send(.open("B")) { $0.path.append(Screen.State(title: "B")) }
    await store.send(.path(.element(id: 1, action: .startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 1, action: .tick))) { $0.path[id: 1]?.seconds = 1 }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path = StackState()
      $0.popped = ["A"]
    }
    await clock.advance(by: .seconds(3))
  }

  @Test("an element pops itself with @Dependency(\\.dismiss)")
  func elementDismisses() async {
    let store = TestStore(initialState: Browser.State()) { Browser() }
    await store.send(.open("A")) { $0.path.append(Screen.State(title: "A")) }
    await store.send(.open("B")) { $0.path.append(Screen.State(title: "B")) }
    await store.send(.path(.element(id: 1, action: .doneButtonTapped)))
    await store.receive(.path(.popFrom(id: 1))) {
      $0.path.removeLast()
      $0.popped = ["B"]
    }
  }

  @Test("push(id:state:) adds the element with that id, and later appends count past it")
  func pushAction() async {
    let store = TestStore(initialState: Browser.State()) { Browser() }
    await store.send(.path(.push(id: 5, state: Screen.State(title: "deep link")))) {
      $0.path[id: 5] = Screen.State(title: "deep link")
    }
    await store.send(.open("next"))
    {
      $0.path[id: 6] = Screen.State(title: "next")
    }
  }

  @Test("an action for a missing element is reported, not run")
  func missingElement() async {
    let store = TestStore(initialState: Browser.State()) { Browser() }
    let issues = await withIssueCapture {
      await store.send(.path(.element(id: 3, action: .tick)))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.contains("received an action for a missing element") == true)
  }

  @Test("pop(from:) and pop(to:) remove what they say")
  func popHelpers() {
    var stack = withDependencies { $0.stackElementID = .incrementing() } operation: {
      StackState(["a", "b", "c", "d"])
    }
    let poppedTo = stack.pop(to: 1)
    #expect(poppedTo)
    #expect(Array(stack) == ["a", "b"])
    let poppedFrom = stack.pop(from: 1)
    #expect(poppedFrom)
    #expect(Array(stack) == ["a"])
    let poppedMissing = stack.pop(from: 9)
    #expect(!poppedMissing)
  }

  @Test("StackState encodes as the array of its elements; StackAction as a synthesized enum")
  func codable() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let stack = withDependencies { $0.stackElementID = .incrementing() } operation: {
      StackState([Screen.State(title: "A")])
    }
    #expect(
      String(decoding: try encoder.encode(stack), as: UTF8.self)
        == #"[{"element":{"seconds":0,"title":"A"},"id":0}]"#)
    let action = StackAction<Screen.State, Screen.Action>.element(id: 2, action: .tick)
    let data = try encoder.encode(action)
    #expect(String(decoding: data, as: UTF8.self) == #"{"element":{"action":{"tick":{}},"id":2}}"#)
    #expect(try JSONDecoder().decode(StackAction<Screen.State, Screen.Action>.self, from: data) == action)
  }
}
