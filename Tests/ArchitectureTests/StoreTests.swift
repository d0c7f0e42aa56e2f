import Architecture
import Testing

@MainActor
@Suite("Store")
struct StoreTests {
  struct Chain: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Equatable { case a, b, c, d, e }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.log.append("\(action)")
      switch action {
      case .a: return .merge(.send(.b), .send(.c))
      case .b: return .send(.d)
      case .c, .d, .e: return .none
      }
    }
  }

  @Test("actions sent while reducing are reduced in order, after the current one")
  func bufferedSends() {
    let store = Store(initialState: Chain.State()) { Chain() }
    store.send(.a)
    #expect(store.state.log == ["a", "b", "c", "d"])
  }

  @Test("an action sent by an observer during a batch is reduced after the batch's own")
  func reentrantSend() {
    let store = Store(initialState: Chain.State()) { Chain() }
    var sentFromObserver = false
    let observation = store.observe { state in
      if state.log.last == "d", !sentFromObserver {
        sentFromObserver = true
        store.send(.e)
      }
    }
    store.send(.a)
    #expect(store.state.log == ["a", "b", "c", "d", "e"])
    observation.cancel()
  }

  @Test("observers see the state after every batch, and stop after cancelling")
  func observation() {
    let store = Store(initialState: Chain.State()) { Chain() }
    var seen: [Int] = []
    let observation = store.observe { seen.append($0.log.count) }
    store.send(.c)
    store.send(.a)
    observation.cancel()
    store.send(.e)
    #expect(seen == [0, 1, 5])
  }

  @Test("a .run effect feeds its actions back into the store, and its task can be awaited")
  func runEffect() async {
    struct Feature: Reducer {
      struct State: Equatable { var value = 0 }
      enum Action { case load, loaded(Int) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load:
          return .run { send in await send(.loaded(42)) }
        case let .loaded(value):
          state.value = value
          return .none
        }
      }
    }
    let store = Store(initialState: Feature.State()) { Feature() }
    await store.send(.load).finish()
    #expect(store.value == 42)
  }

  @Test("a scoped store reads the child's state and sends through the parent")
  func scope() {
    struct Parent: Reducer {
      struct State: Equatable { var child = Chain.State() }
      enum Action { case child(Chain.Action) }
      var body: some ReducerOf<Self> {
        Scope(state: \.child, action: /Action.child) {
          Chain()
        }
      }
    }
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: /Parent.Action.child)
    child.send(.c)
    #expect(child.state.log == ["c"])
    #expect(store.state.child.log == ["c"])
  }

  @Test("the store publishes each step's number and origin to reducers that ask")
  func origins() {
    let store = Store(initialState: [String]()) {
      Reduce<[String], Chain.Action> { state, action in
        let context = ReduceContextProbe.current()
        state.append("\(context.step):\(context.origin)")
        switch action {
        case .a: return .merge(.send(.b), .send(.c))
        case .b: return .send(.d)
        default: return .none
        }
      }
    }
    store.send(.a)
    store.send(.e)
    #expect(
      store.state == [
        "0:send", "1:effect(parent: 0)", "2:effect(parent: 0)", "3:effect(parent: 1)",
        "4:send",
      ]
    )
  }
}
