import Architecture
import Testing

@MainActor
@Suite("withTaskCancellation")
struct WithTaskCancellationTests {
  struct Search: Reducer {
    struct State: Equatable { var results: [String] = [] }
    enum Action: Equatable {
      case queryChanged(String)
      case cancelButtonTapped
      case response(String)
    }
    enum CancelID { case search }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .queryChanged(query):
        return .run { send in
          try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
            try await clock.sleep(for: .seconds(1))
            await send(.response(query))
          }
        }
      case .cancelButtonTapped:
        return .cancel(id: CancelID.search)
      case let .response(result):
        state.results.append(result)
        return .none
      }
    }
  }

  /// Search as a child feature, so its ids live under the parent's case.
  struct Parent: Reducer {
    enum State: Equatable { case searching(Search.State) }
    enum Action: Equatable { case search(Search.Action) }

    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(/State.searching, action: /Action.search) { Search() }
    }
  }

  func makeStore(clock: TestClock<Duration>) -> TestStoreOf<Search> {
    TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test("a reducer's .cancel(id:) cancels the operation")
  func cancelByID() async {
    let clock = TestClock()
    let issues = await withIssueCapture {
      let store = makeStore(clock: clock)
      await store.send(.queryChanged("a"))
      await store.send(.cancelButtonTapped)
      await clock.advance(by: .seconds(2))
      await store.finish()
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("cancelInFlight cancels the earlier operation with the same id")
  func cancelInFlight() async {
    let clock = TestClock()
    let issues = await withIssueCapture {
      let store = makeStore(clock: clock)
      await store.send(.queryChanged("a"))
      await clock.advance(by: .milliseconds(500))
      await store.send(.queryChanged("ab"))
      await clock.advance(by: .seconds(1))
      await store.receive(.response("ab")) { $0.results = ["ab"] }
      await store.finish()
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("in a child feature, the child's .cancel(id:) reaches the operation its effect started")
  func childScopedIDs() async {
    let clock = TestClock()
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Parent.State.searching(Search.State())) {
        Parent()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.search(.queryChanged("a")))
      await store.send(.search(.cancelButtonTapped))
      await clock.advance(by: .seconds(2))
      await store.finish()
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("outside a store, the operation returns its value and cancelInFlight still applies")
  func outsideAStore() async throws {
    let (started, signal) = AsyncStream<Void>.makeStream()
    let cancelled = EventLog<String>()
    let first = Task {
      try await withTaskCancellation(id: "outside", cancelInFlight: true) {
        try await withTaskCancellationHandler {
          signal.yield()
          try await Task.sleep(for: .seconds(3600))
        } onCancel: {
          cancelled.append("first")
        }
      }
    }
    for await _ in started { break }
    let second = await withTaskCancellation(id: "outside", cancelInFlight: true) { "second" }
    #expect(second == "second")
    // Cancellation handlers run synchronously, so starting the second operation has already
    // cancelled the first.
    #expect(cancelled.all == ["first"])
    first.cancel()
    _ = await first.result
  }
}
