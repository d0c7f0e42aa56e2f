import Architecture
import Testing

@MainActor
@Suite("TestStore.assert")
struct TestStoreAssertTests {
  struct Feature: Reducer {
    struct State: Equatable {
      var count = 0
      var isLoading = false
    }
    enum Action: Equatable { case increment, load, loaded(Int) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .load:
        state.isLoading = true
        return .run { send in await send(.loaded(42)) }
      case let .loaded(value):
        state.isLoading = false
        state.count = value
        return .none
      }
    }
  }

  @Test("assert passes for the current state, even when the closure changes nothing")
  func passes() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 1 }
      store.assert { $0.count = 1 }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("assert checks changes no assertion covered, with exhaustivity off")
  func checksUnassertedChanges() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.exhaustivity = .off
      await store.send(.load)
      await store.finish()
      store.assert {
        $0.count = 42
        $0.isLoading = false
      }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("a mismatch is reported with send's wording and a diff")
  func fails() async {
    var line: UInt = 0
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.increment) { $0.count = 1 }
      line = #line + 1
      store.assert { $0.count = 2 }
    }
    #expect(issues.count == 1)
    let message = issues.first?.message ?? ""
    #expect(message.hasPrefix("A state change does not match expectation: …"), "\(message)")
    #expect(message.contains("−   count: 2"), "\(message)")
    #expect(message.contains("+   count: 1"), "\(message)")
    #expect(message.hasSuffix("(Expected: −, Actual: +)"), "\(message)")
    #expect(issues.first?.line == line)
  }
}
