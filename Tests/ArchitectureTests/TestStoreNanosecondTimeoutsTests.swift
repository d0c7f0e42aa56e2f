import Architecture
import Testing

@MainActor
@Suite("TestStore timeouts in nanoseconds")
struct TestStoreNanosecondTimeoutsTests {
  struct Feature: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case load, loaded(Int), noop }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .load:
        return .run { send in await send(.loaded(1)) }
      case let .loaded(value):
        state.count = value
        return .none
      case .noop:
        return .none
      }
    }
  }

  @Test("receive and finish take a timeout in nanoseconds, as TCA 1.x tests write it")
  func acceptsNanoseconds() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.load)
      await store.receive(.loaded(1), timeout: 1_000_000_000) { $0.count = 1 }
      await store.send(.load)
      await store.receive(/Feature.Action.loaded, timeout: 1_000_000_000)
      await store.send(.load)
      await store.receive({ $0 == .loaded(1) }, timeout: 1_000_000_000)
      await store.finish(timeout: 1_000_000_000)
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("the nanoseconds become the wait's length")
  func convertsNanoseconds() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.noop)
      await store.receive(.loaded(1), timeout: 50_000_000)
    }
    #expect(
      issues.map(\.message) == [
        "Expected to receive an action, but received none after 0.05 seconds."
      ]
    )
  }
}
