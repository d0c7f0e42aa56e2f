import Architecture
import Testing

@MainActor
@Suite("TestStore.withExhaustivity")
struct TestStoreExhaustivityTests {
  struct Feature: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case increment }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct Failure: Error {}

  @Test("the exhaustivity applies inside the operation and is restored after it")
  func appliesAndRestores() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.withExhaustivity(.off) {
        #expect(store.exhaustivity == .off)
        // Not exhaustive: the unasserted change is not a failure.
        await store.send(.increment)
      }
      #expect(store.exhaustivity == .on)
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("the exhaustivity is restored when the operation throws")
  func restoresOnThrow() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await #expect(throws: Failure.self) {
      try await store.withExhaustivity(.off(showSkippedAssertions: true)) {
        #expect(store.exhaustivity == .off(showSkippedAssertions: true))
        await Task.yield()
        throw Failure()
      }
    }
    #expect(store.exhaustivity == .on)
  }

  @Test("the synchronous form applies and restores, and returns the operation's value")
  func synchronous() {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    store.exhaustivity = .off
    let seen = store.withExhaustivity(.on) { store.exhaustivity }
    #expect(seen == .on)
    #expect(store.exhaustivity == .off)
  }
}
