import Architecture
import Foundation
import TestSupport
import Testing

/// An observer that logs each end as "name number step finished|cancelled".
final class LoggingObserver: EffectObserver {
  let name: String
  let log: EventLog<String>

  init(_ name: String, log: EventLog<String>) {
    self.name = name
    self.log = log
  }

  func effectEnded(_ effect: Int, step: Int, cancelled: Bool) {
    log.append("\(name) \(effect) step \(step) \(cancelled ? "cancelled" : "finished")")
  }
}

/// Polls `condition`, failing the test if it stays false for minutes (a loaded machine may take
/// seconds).
@MainActor
func eventually(_ what: String, _ condition: () -> Bool) async throws {
  for _ in 0..<60_000 {
    if condition() { return }
    try await Task.sleep(for: .milliseconds(2))
  }
  Issue.record("never saw \(what)")
  throw CancellationError()
}

/// `Effect.observed(by:)`: the store numbers an observed effect's runs in pre-order, and tells
/// the observer as each one ends.
@MainActor
@Suite("Effect observation")
struct EffectObservationTests {
  enum Action: Equatable { case go, stop, other }
  enum ID: Hashable, Sendable { case shape }

  let gates = RunGates()
  let log = EventLog<String>()

  func observation(_ name: String, first: Int, step: Int) -> EffectObservation {
    EffectObservation(first: first, step: step, observer: LoggingObserver(name, log: log))
  }

  /// Opens `label` and waits until the log has `count` entries.
  func end(_ label: String, logging count: Int) async throws {
    gates.open(label)
    try await eventually("\(count) ends") { log.all.count >= count }
  }

  @Test("runCount counts the runs of every shape, and map keeps it")
  func runCount() {
    let run: Effect<Action> = gates.run("a")
    let observed = Effect.merge(run, run).observed(by: observation("x", first: 0, step: 0))
    let shapes: [(Effect<Action>, Int)] = [
      (.none, 0),
      (.send(.other), 0),
      (.cancel(id: ID.shape), 0),
      (run, 1),
      (.merge(run, .send(.other), run), 2),
      (.concatenate(.send(.other), run, .merge(run, run)), 3),
      (run.cancellable(id: ID.shape), 1),
      (observed, 2),
      (.merge(observed, run).map { $0 }, 3),
    ]
    for (effect, count) in shapes {
      #expect(effect.runCount == count)
      #expect(effect.map { $0 }.runCount == count)
    }
  }

  @Test("nested observers number the same runs each from their own first; the inner hears first")
  func nested() async throws {
    let inner = observation("inner", first: 10, step: 1)
    let outer = observation("outer", first: 20, step: 2)
    let gates = gates
    let store = Store(initialState: 0) {
      Reduce<Int, Action> { _, action in
        guard action == .go else { return .none }
        let innerEffect = Effect<Action>.merge(
          .concatenate(gates.run("a"), gates.run("b")), gates.run("c")
        )
        .observed(by: inner)
        return Effect.merge(gates.run("d"), innerEffect).observed(by: outer)
      }
    }
    store.send(.go)
    try await end("c", logging: 2)
    try await end("d", logging: 3)
    try await end("a", logging: 5)
    try await eventually("b started") { gates.hasStarted("b") }
    try await end("b", logging: 7)
    #expect(
      log.all == [
        "inner 12 step 1 finished", "outer 23 step 2 finished",
        "outer 20 step 2 finished",
        "inner 10 step 1 finished", "outer 21 step 2 finished",
        "inner 11 step 1 finished", "outer 22 step 2 finished",
      ])
  }

  @Test("an observed effect mapped to a parent's actions keeps its numbers")
  func mapped() async throws {
    let observed = observation("child", first: 5, step: 3)
    let gates = gates
    let store = Store(initialState: 0) {
      Reduce<Int, Action> { _, action in
        guard action == .go else { return .none }
        let child: Effect<Int> = .merge(gates.run("a"), gates.run("b"))
        return child.observed(by: observed).map { _ in Action.other }
      }
    }
    store.send(.go)
    try await end("b", logging: 1)
    try await end("a", logging: 2)
    #expect(log.all == ["child 6 step 3 finished", "child 5 step 3 finished"])
  }

  @Test("cancelled runs are reported cancelled; a concatenation's unstarted runs never")
  func cancelled() async throws {
    let observed = observation("x", first: 0, step: 0)
    let gates = gates
    let store = Store(initialState: 0) {
      Reduce<Int, Action> { _, action in
        switch action {
        case .go:
          return Effect.merge(
            .concatenate(gates.run("a"), gates.run("b")).cancellable(id: ID.shape),
            gates.run("c")
          )
          .observed(by: observed)
        case .stop:
          return .cancel(id: ID.shape)
        case .other:
          return .none
        }
      }
    }
    store.send(.go)
    try await eventually("a started") { gates.hasStarted("a") }
    store.send(.stop)
    try await eventually("a cancelled") { log.all.count == 1 }
    try await end("c", logging: 2)
    #expect(log.all == ["x 0 step 0 cancelled", "x 2 step 0 finished"])
  }

  @Test("a test store waits for every run, and its observers hear of each end before it does")
  func testStore() async throws {
    let observed = observation("x", first: 0, step: 0)
    let gates = gates
    let store = TestStore(initialState: 0) {
      Reduce<Int, Action> { _, action in
        guard action == .go else { return .none }
        return Effect.concatenate(gates.run("a"), .merge(gates.run("b"), gates.run("c")))
          .observed(by: observed)
      }
    }
    await store.send(.go)
    gates.open("a")
    gates.open("b")
    gates.open("c")
    await store.finish()
    // The test store's bookkeeping is the outer observer: once it saw the runs end, the
    // reducer's observer already had.
    #expect(log.all.count == 3)
    #expect(Set(log.all) == ["x 0 step 0 finished", "x 1 step 0 finished", "x 2 step 0 finished"])
  }

  @Test("a test store counts a concatenation's later runs as in flight from the send")
  func testStoreInFlight() async throws {
    let issues = await withIssueCapture {
      let gates = gates
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { _, action in
          guard action == .go else { return .none }
          return .concatenate(gates.run("a"), .merge(gates.run("b"), gates.run("c")))
        }
      }
      await store.send(.go)
    }
    // One report per run still running or yet to start.
    #expect(issues.count == 3)
    #expect(issues.allSatisfy { $0.message.contains("is still running") })
  }
}
