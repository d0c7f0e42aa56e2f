import Architecture
import Testing

/// A child feature whose effect runs until cancelled, logging how it ended.
struct Sleeper: Reducer {
  let log: EventLog<String>
  struct State: Equatable, Identifiable {
    var id: Int
    var started = false
  }
  enum Action: Equatable { case start, woke }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.started = true
      return .run { [log, id = state.id] _ in await sleepUntilCancelled("child \(id)", log: log) }
    case .woke:
      return .none
    }
  }
}

@MainActor
@Suite("Reducer composition")
struct CompositionTests {
  struct Parent: Reducer {
    let log: EventLog<String>
    struct State: Equatable {
      var child: Sleeper.State?
      var rows: IdentifiedArrayOf<Sleeper.State> = []
    }
    enum Action: Equatable {
      case child(Sleeper.Action)
      case row(id: Int, action: Sleeper.Action)
      case present, dismiss, removeRow(Int)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .present:
          state.child = Sleeper.State(id: 0)
        case .dismiss:
          state.child = nil
        case let .removeRow(id):
          state.rows.remove(id: id)
        case .child, .row:
          break
        }
        return .none
      }
      .ifLet(\.child, action: /Action.child) { Sleeper(log: log) }
      .forEach(\.rows, action: /Action.row(id:action:)) { Sleeper(log: log) }
    }
  }

  @Test("ifLet cancels the child's running effects when the child state becomes nil")
  func ifLetCancelsOnDismiss() async {
    let log = EventLog<String>()
    let store = Store(initialState: Parent.State()) { Parent(log: log) }
    store.send(.present)
    let effect = store.send(.child(.start))
    #expect(store.state.child?.started == true)
    store.send(.dismiss)
    await effect.finish()
    #expect(log.all == ["child 0 cancelled"])
  }

  @Test("ifLet reports a child action sent while the child state is nil, and ignores it")
  func ifLetReportsNilChild() {
    let log = EventLog<String>()
    let store = Store(initialState: Parent.State()) { Parent(log: log) }
    let issues = withIssueCapture {
      store.send(.child(.start))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix(#"An "ifLet" at "ArchitectureTests/CompositionTests.swift:"#) == true)
    #expect(store.state.child == nil)
  }

  @Test("forEach runs the element's reducer for its id and cancels the effects of removed rows")
  func forEachCancelsRemoved() async {
    let log = EventLog<String>()
    let store = Store(
      initialState: Parent.State(rows: [Sleeper.State(id: 1), Sleeper.State(id: 2)])
    ) {
      Parent(log: log)
    }
    let first = store.send(.row(id: 1, action: .start))
    let second = store.send(.row(id: 2, action: .start))
    #expect(store.state.rows.map(\.started) == [true, true])
    store.send(.removeRow(1))
    await first.finish()
    #expect(log.all == ["child 1 cancelled"])
    #expect(!second.isCancelled)
    second.cancel()
    await second.finish()
  }

  /// A row that starts a sleep under a cancellation id, and cancels that id.
  struct Napper: Reducer {
    let log: EventLog<String>
    struct State: Equatable, Identifiable {
      var id: Int
    }
    enum Action: Equatable { case nap, wake }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .nap:
        return .run { [log, id = state.id] _ in await sleepUntilCancelled("row \(id)", log: log) }
          .cancellable(id: "nap")
      case .wake:
        return .cancel(id: "nap")
      }
    }
  }

  struct Nappers: Reducer {
    let log: EventLog<String>
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Napper.State>
    }
    enum Action: Equatable {
      case row(id: Int, action: Napper.Action)
    }

    var body: some ReducerOf<Self> {
      Reduce { _, _ in .none }
        .forEach(\.rows, action: /Action.row(id:action:)) { Napper(log: log) }
    }
  }

  @Test("forEach scopes an element's cancellation ids to it: other rows' same ids keep running")
  func forEachScopesCancelIDs() async {
    let log = EventLog<String>()
    let store = Store(
      initialState: Nappers.State(rows: [Napper.State(id: 1), Napper.State(id: 2)])
    ) {
      Nappers(log: log)
    }
    let first = store.send(.row(id: 1, action: .nap))
    let second = store.send(.row(id: 2, action: .nap))
    store.send(.row(id: 1, action: .wake))
    await first.finish()
    #expect(log.all == ["row 1 cancelled"])
    #expect(!second.isCancelled)
    second.cancel()
    await second.finish()
  }

  @Test("forEach reports an action for a missing id, and ignores it")
  func forEachReportsMissingID() {
    let log = EventLog<String>()
    let store = Store(initialState: Parent.State(rows: [Sleeper.State(id: 1)])) {
      Parent(log: log)
    }
    let issues = withIssueCapture {
      store.send(.row(id: 9, action: .start))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix(#"A "forEach" at "ArchitectureTests/CompositionTests.swift:"#) == true)
    #expect(store.state.rows.map(\.started) == [false])
  }

  /// A list whose rows sit after other fields, reached through a stored path or a computed
  /// property; the parent deletes the row an element action came from.
  struct Ledger: Reducer {
    struct Row: Equatable, Identifiable {
      var id: Int
      var taps = 0
    }
    struct Rows: Equatable {
      var title = "ledger"
      var items: IdentifiedArrayOf<Row> = []
    }
    struct State: Equatable {
      var header = "header"
      var count = 0
      var rows = Rows()
      var computedItems: IdentifiedArrayOf<Row> {
        get { rows.items }
        set { rows.items = newValue }
      }
    }
    enum Action: Equatable { case row(id: Int, action: RowAction) }
    enum RowAction: Equatable { case tap, tapAndRemove }
    let throughComputedProperty: Bool

    var body: some ReducerOf<Self> {
      let rows: WritableKeyPath<State, IdentifiedArrayOf<Row>> =
        throughComputedProperty ? \.computedItems : \.rows.items
      Reduce { state, action in
        state.count += 1
        if case let .row(id, .tapAndRemove) = action { state.rows.items.remove(id: id) }
        return .none
      }
      .forEach(rows, action: /Action.row(id:action:)) {
        Reduce<Row, RowAction> { row, _ in
          row.taps += 1
          return .none
        }
      }
    }
  }

  @Test(
    "forEach reduces the right element through a stored path and through a computed property",
    arguments: [false, true])
  func forEachThroughStoredAndComputedPaths(throughComputedProperty: Bool) {
    let store = Store(
      initialState: Ledger.State(rows: .init(items: [.init(id: 1), .init(id: 2), .init(id: 3)]))
    ) {
      Ledger(throughComputedProperty: throughComputedProperty)
    }
    store.send(.row(id: 2, action: .tap))
    store.send(.row(id: 2, action: .tap))
    store.send(.row(id: 3, action: .tap))
    #expect(store.state.rows.items.map(\.taps) == [0, 2, 1])
    store.send(.row(id: 1, action: .tapAndRemove))
    #expect(store.state.rows.items.map(\.id) == [2, 3])
    #expect(store.state.header == "header")
    #expect(store.state.rows.title == "ledger")
    #expect(store.state.count == 4)
  }

  @Test("the builder runs reducers top to bottom, with if, else and optional reducers")
  func builder() {
    struct Feature: Reducer {
      var useFirst: Bool
      var extra: Bool
      var body: some Reducer<[String], Bool> {
        Reduce { state, _ in
          state.append("top")
          return .none
        }
        if useFirst {
          Reduce { state, _ in
            state.append("first")
            return .none
          }
        } else {
          EmptyReducer()
        }
        if extra {
          CombineReducers {
            Reduce { state, _ in
              state.append("extra")
              return .none
            }
          }
        }
      }
    }
    var state: [String] = []
    _ = Feature(useFirst: true, extra: true).reduce(into: &state, action: true)
    _ = Feature(useFirst: false, extra: false).reduce(into: &state, action: true)
    #expect(state == ["top", "first", "extra", "top"])
  }

  @Test("_printChanges prints the action and a diff of the state it changed")
  func printChanges() {
    let output = EventLog<String>()
    let store = Store(initialState: Sleeper.State(id: 3)) {
      Sleeper(log: EventLog())._printChanges(.customDump { output.append($0) })
    }
    store.send(.woke)
    let task = store.send(.start)
    task.cancel()
    #expect(output.all == [
      """
      received action:
        Sleeper.Action.woke
        (No state changes)
      """,
      """
      received action:
        Sleeper.Action.start
        Sleeper.State(
          id: 3,
      −   started: false
      +   started: true
        )
      """,
    ])
  }
}
