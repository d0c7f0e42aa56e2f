import Architecture
import Testing

@MainActor
@Suite("Effect")
struct EffectTests {
  struct Feature: Reducer {
    let log: EventLog<String>
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case start(String), startReplacing(String), stop, finished }
    enum CancelID { case work }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .start(name):
        return .run { [log] _ in await sleepUntilCancelled(name, log: log) }
          .cancellable(id: CancelID.work)
      case let .startReplacing(name):
        return .run { [log] _ in await sleepUntilCancelled(name, log: log) }
          .cancellable(id: CancelID.work, cancelInFlight: true)
      case .stop:
        return .cancel(id: CancelID.work)
      case .finished:
        state.count += 1
        return .none
      }
    }
  }

  @Test("cancel(id:) cancels every running effect marked with that id")
  func cancelByID() async {
    let log = EventLog<String>()
    let store = Store(initialState: Feature.State()) { Feature(log: log) }
    let first = store.send(.start("first"))
    let second = store.send(.start("second"))
    store.send(.stop)
    await first.finish()
    await second.finish()
    #expect(Set(log.all) == ["first cancelled", "second cancelled"])
  }

  @Test("cancelInFlight cancels the older effect with the same id and keeps the new one")
  func cancelInFlight() async {
    let log = EventLog<String>()
    let store = Store(initialState: Feature.State()) { Feature(log: log) }
    let first = store.send(.startReplacing("first"))
    let second = store.send(.startReplacing("second"))
    await first.finish()
    #expect(log.all == ["first cancelled"])
    #expect(!second.isCancelled)
    second.cancel()
    await second.finish()
    #expect(log.all == ["first cancelled", "second cancelled"])
  }

  @Test("cancellation ids are scoped to the root store")
  func idsArePerStore() async {
    let log = EventLog<String>()
    let one = Store(initialState: Feature.State()) { Feature(log: log) }
    let two = Store(initialState: Feature.State()) { Feature(log: log) }
    let kept = one.send(.start("one"))
    let stopped = two.send(.start("two"))
    two.send(.stop)
    await stopped.finish()
    #expect(log.all == ["two cancelled"])
    kept.cancel()
    await kept.finish()
  }

  @Test("concatenate runs effects one after the other; merge runs them together")
  func concatenateAndMerge() async {
    struct Sequenced: Reducer {
      struct State: Equatable { var log: [String] = [] }
      enum Action: Equatable { case go, step(String) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .go:
          return .concatenate(
            .send(.step("sync")),
            .run { send in
              try await Task.sleep(for: .milliseconds(20))
              await send(.step("slow"))
            },
            .run { send in await send(.step("fast")) },
            .send(.step("last"))
          )
        case let .step(name):
          state.log.append(name)
          return .none
        }
      }
    }
    let store = Store(initialState: Sequenced.State()) { Sequenced() }
    let task = store.send(.go)
    #expect(store.state.log == ["sync"])
    await task.finish()
    #expect(store.state.log == ["sync", "slow", "fast", "last"])
  }

  @Test("map transforms the actions of every kind of effect")
  func map() async {
    struct Feature: Reducer {
      struct State: Equatable { var values: [Int] = [] }
      enum Action: Equatable { case go, value(Int) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .go:
          let inner: Effect<Int> = .merge(.send(1), .run { send in await send(2) })
          return inner.map { Action.value($0 * 10) }
        case let .value(value):
          state.values.append(value)
          return .none
        }
      }
    }
    let store = Store(initialState: Feature.State()) { Feature() }
    await store.send(.go).finish()
    #expect(store.state.values == [10, 20])
  }

  @Test("a .run that throws without a catch: reports the TCA wording with its location")
  func unhandledError() async {
    struct Failure: Error {}
    let store = Store(initialState: 0) {
      Reduce<Int, Bool> { _, _ in
        .run { _ in throw Failure() }
      }
    }
    let issues = await withIssueCapture {
      await store.send(true).finish()
    }
    #expect(issues.count == 1)
    let message = issues.first?.message ?? ""
    #expect(message.hasPrefix(#"An "Effect.run" returned from "ArchitectureTests/EffectTests.swift:"#))
    #expect(message.contains("threw an unhandled error"))
    #expect(message.contains(#"All non-cancellation errors must be explicitly handled via the "catch" parameter on "Effect.run", or via a "do" block."#))
    #expect(issues.first?.fileID == "ArchitectureTests/EffectTests.swift")
  }

  @Test("a .run that throws with a catch: hands the error to the handler, which can send")
  func handledError() async {
    struct Failure: Error {}
    struct Feature: Reducer {
      enum Action { case go, failed }
      func reduce(into state: inout [String], action: Action) -> Effect<Action> {
        switch action {
        case .go:
          return .run { _ in throw Failure() } catch: { _, send in await send(.failed) }
        case .failed:
          state.append("failed")
          return .none
        }
      }
    }
    let store = Store(initialState: [String]()) { Feature() }
    let issues = await withIssueCapture { await store.send(.go).finish() }
    #expect(issues.isEmpty)
    #expect(store.state == ["failed"])
  }

  @Test("sending after the effect's task is cancelled does nothing")
  func sendAfterCancellation() async {
    struct Feature: Reducer {
      enum Action { case go, late }
      func reduce(into state: inout [String], action: Action) -> Effect<Action> {
        switch action {
        case .go:
          return .run { send in
            withUnsafeCurrentTask { $0?.cancel() }
            await send(.late)
          }
        case .late:
          state.append("late")
          return .none
        }
      }
    }
    let store = Store(initialState: [String]()) { Feature() }
    await store.send(.go).finish()
    #expect(store.state.isEmpty)
  }
}
