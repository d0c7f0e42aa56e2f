import Architecture
import Testing

private enum NumberKey: TestDependencyKey {
  static let testValue = 0
}

private struct Greeting: TestDependencyKey, Sendable {
  var text: String
  static let testValue = Greeting(text: "default")
}

extension DependencyValues {
  fileprivate var number: Int {
    get { self[NumberKey.self] }
    set { self[NumberKey.self] = newValue }
  }
}

@MainActor
@Suite("dependency and transformDependency")
struct DependencyKeyWritingReducerTests {
  fileprivate struct Feature: Reducer {
    struct State: Equatable {
      var fromReducer: Int?
      var fromEffect: Int?
      var greeting = ""
    }
    enum Action: Equatable {
      case load
      case loaded(Int)
      case greet
    }

    @Dependency(\.number) var number
    @Dependency(Greeting.self) var greeting

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .load:
        state.fromReducer = number
        return .run { send in
          // Read in the effect's task, after a suspension: the override must still hold.
          await Task.yield()
          await send(.loaded(number))
        }
      case let .loaded(value):
        state.fromEffect = value
        return .none
      case .greet:
        state.greeting = greeting.text
        return .none
      }
    }
  }

  @Test("dependency(_:_:) reaches the reducer and its .run effect")
  func dependencyReachesReducerAndEffect() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) {
        Feature().dependency(\.number, 42)
      }
      await store.send(.load) { $0.fromReducer = 42 }
      await store.receive(.loaded(42)) { $0.fromEffect = 42 }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("transformDependency changes the value in force, in the reducer and its effect")
  func transformDependency() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) {
        Feature().transformDependency(\.number) { $0 += 1 }
      } withDependencies: {
        $0.number = 10
      }
      await store.send(.load) { $0.fromReducer = 11 }
      await store.receive(.loaded(11)) { $0.fromEffect = 11 }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("in a chain, the override nearest the reducer is applied last")
  func chainOrder() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) {
        Feature()
          .transformDependency(\.number) { $0 *= 2 }
          .dependency(\.number, 5)
          .transformDependency(\.number) { $0 += 100 }
      }
      // 0 + 100, then set to 5, then doubled.
      await store.send(.load) { $0.fromReducer = 10 }
      await store.receive(.loaded(10)) { $0.fromEffect = 10 }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("dependency(_:) overrides the dependency keyed by the value's own type")
  func dependencyByType() async {
    let store = TestStore(initialState: Feature.State()) {
      Feature().dependency(Greeting(text: "hello"))
    }
    await store.send(.greet) { $0.greeting = "hello" }
  }

  @Test("the override does not leak to reducers outside it")
  func scopedToTheReducer() async {
    let store = TestStore(initialState: Feature.State()) {
      CombineReducers {
        Feature().dependency(\.number, 42)
        Reduce { state, action in
          @Dependency(\.number) var number
          if action == .load { state.fromEffect = number }
          return .none
        }
      }
    }
    await store.send(.load) {
      $0.fromReducer = 42
      $0.fromEffect = 0
    }
    await store.receive(.loaded(42)) { $0.fromEffect = 42 }
  }
}
