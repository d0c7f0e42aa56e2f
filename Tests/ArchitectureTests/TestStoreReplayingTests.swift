import Architecture
import Foundation
import Testing

/// `TestStore.runsEffects` and `receive(replaying:)`: replaying a recorded session, effects off.
@MainActor
@Suite("TestStore replaying a recording")
struct TestStoreReplayingTests {
  struct Feature: Reducer {
    struct State: Equatable {
      var count = 0
      var isLoading = false
      var id: UUID?
      var date: Date?
      var roll: UInt64?
    }
    enum Action: Equatable {
      case load
      case loaded(Int)
      case echo, increment, identify, roll
    }

    @Dependency(\.uuid) var uuid
    @Dependency(\.date) var date
    @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .load:
        state.isLoading = true
        return .run { send in await send(.loaded(42)) }
      case .loaded(let value):
        state.isLoading = false
        state.count = value
        return .none
      case .echo:
        return .send(.increment)
      case .increment:
        state.count += 1
        return .none
      case .identify:
        state.id = uuid()
        state.date = date.now
        return .none
      case .roll:
        state.roll = withRandomNumberGenerator { $0.next() }
        return .none
      }
    }
  }

  @Test("with effects off, nothing an effect would send arrives, and nothing is left running")
  func effectsOff() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.runsEffects = false
      await store.send(.load) { $0.isLoading = true }
      await store.send(.echo)
    }
    #expect(issues.isEmpty)
  }

  @Test("a replayed action is reduced and its state change asserted like a received one")
  func replaying() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.runsEffects = false
      await store.send(.load) { $0.isLoading = true }
      await store.receive(replaying: .loaded(7)) {
        $0.isLoading = false
        $0.count = 7
      }
    }
    #expect(issues.isEmpty)
  }

  @Test("a replayed action whose state change differs is reported with TCA's diff, at its line")
  func replayingMismatch() async {
    var line: UInt = 0
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      store.runsEffects = false
      line = #line + 1
      await store.receive(replaying: .loaded(7)) { $0.count = 8 }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.line == line)
    let message = issues.first?.message ?? ""
    #expect(message.hasPrefix("A state change does not match expectation: …"))
    #expect(message.contains("−   count: 8,"))
    #expect(message.contains("+   count: 7,"))
  }

  @Test("recorded uuid, date and random values are handed out in order")
  func sequences() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) {
        Feature()
      } withDependencies: {
        $0.uuid = .sequence([UUID(counting: 7), UUID(counting: 9)])
        $0.date = .sequence([
          Date(timeIntervalSinceReferenceDate: 1), Date(timeIntervalSinceReferenceDate: 5),
        ])
        $0.withRandomNumberGenerator = WithRandomNumberGenerator(
          SequenceRandomNumberGenerator([3, 4]))
      }
      await store.send(.identify) {
        $0.id = UUID(counting: 7)
        $0.date = Date(timeIntervalSinceReferenceDate: 1)
      }
      await store.send(.identify) {
        $0.id = UUID(counting: 9)
        $0.date = Date(timeIntervalSinceReferenceDate: 5)
      }
      await store.send(.roll) { $0.roll = 3 }
      await store.send(.roll) { $0.roll = 4 }
    }
    #expect(issues.isEmpty)
  }

  @Test("asking a sequence for more values than it holds is reported")
  func exhaustedSequence() {
    let issues = withIssueCapture {
      let uuid = UUIDGenerator.sequence([UUID(counting: 1)])
      _ = uuid()
      _ = uuid()
    }
    #expect(
      issues.map(\.message) == [
        "UUIDGenerator.sequence was asked for more values than the 1 it was given."
      ])
  }
}

/// A debounced save, restarted on every keystroke: the shape of the todos' autosave.
private struct Debounced: Reducer {
  struct State: Equatable { var text = ""; var saves = 0 }
  enum Action: Equatable { case typed(String), saved }
  enum CancelID { case save }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .typed(let text):
      state.text = text
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.saved)
      }
      .cancellable(id: CancelID.save, cancelInFlight: true)
    case .saved:
      state.saves += 1
      return .none
    }
  }
}

@MainActor
@Suite("TestStore with effects turned off mid-test")
struct TestStoreEffectsOffCancellationTests {
  @Test("an action reduced with effects off still cancels the effect an earlier action started")
  func effectsOffStillCancel() async {
    let clock = TestClock()
    let store = TestStore(initialState: Debounced.State()) { Debounced() } withDependencies: {
      $0.continuousClock = clock
    }
    let first = await store.send(.typed("a")) { $0.text = "a" }
    store.runsEffects = false
    await store.send(.typed("ab")) { $0.text = "ab" }
    // The first save was replaced: it must not fire when the clock passes its deadline.
    await first.finish()
    await clock.advance(by: .seconds(2))
    #expect(store.state.saves == 0)
  }
}
