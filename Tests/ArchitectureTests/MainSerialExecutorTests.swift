import Architecture
import Testing

@MainActor
@Suite("Serial execution on the main actor")
struct MainSerialExecutorTests {
  @Test("withMainSerialExecutor runs child tasks one step at a time, in the order they started")
  func childTasksInterleaveInOrder() async {
    // Each child yields between steps, so serial execution alternates them exactly; in
    // parallel the order changes from run to run.
    for _ in 0..<100 {
      let log = LockIsolated<[String]>([])
      @Sendable func steps(_ name: String) async {
        for step in 0..<3 {
          log.withValue { $0.append("\(name)\(step)") }
          await Task.yield()
        }
      }
      await withMainSerialExecutor {
        async let first: Void = steps("a")
        async let second: Void = steps("b")
        _ = await (first, second)
      }
      #expect(log.value == ["a0", "b0", "a1", "b1", "a2", "b2"])
    }
  }

  @Test("a test store runs effects serially by default, and in parallel once told not to")
  func testStoreSetting() async {
    struct Feature: Reducer {
      enum Action: Equatable { case load, loaded(Int) }
      func reduce(into state: inout Int, action: Action) -> Effect<Action> {
        switch action {
        case .load:
          return .run { send in await send(.loaded(42)) }
        case let .loaded(value):
          state = value
          return .none
        }
      }
    }
    let store = TestStore(initialState: 0) { Feature() }
    #expect(store.useMainSerialExecutor)
    store.useMainSerialExecutor = false
    await store.send(.load)
    await store.receive(.loaded(42)) { $0 = 42 }
  }
}
