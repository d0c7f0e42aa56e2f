import Architecture
import Foundation
import TestSupport
import Testing

@testable import Recorder
@testable import TraceJSON

/// A feature with one action per effect shape; each `.run` is labelled by the letter it waits
/// on, in the order the tree lists them (pre-order), so `a` should take the step's first number.
struct EffectShapes: Reducer {
  struct State: Codable, Equatable {
    var count = 0
  }
  enum Action: Codable, Equatable {
    case none, send, sent, run, merge, concatenate, nested, cancellable, cancel
    case restart(String)
    case cancelConcatenation, cancelConcatenationNow, mapped
  }
  enum CancelID: Hashable, Sendable { case shape, restart, concatenation, inner, unused }

  let gates: RunGates

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    switch action {
    case .none:
      return .none
    case .send:
      return .send(.sent)
    case .sent:
      return .none
    case .run:
      return run("a")
    case .merge:
      return .merge(run("a"), .send(.sent), run("b"), run("c"))
    case .concatenate:
      return .concatenate(.send(.sent), run("a"), run("b"), .merge(run("c"), run("d")))
    case .nested:
      // The concatenation's later runs start later, but are numbered before `c` and `d`.
      return .merge(
        .concatenate(run("a"), .merge(run("b"), run("c").cancellable(id: CancelID.inner))),
        .cancel(id: CancelID.unused),
        run("d"),
        .concatenate(.send(.sent), run("e"))
      )
    case .cancellable:
      return .merge(run("a"), run("b").cancellable(id: CancelID.shape))
    case .cancel:
      return .cancel(id: CancelID.shape)
    case .restart(let label):
      return run(label).cancellable(id: CancelID.restart, cancelInFlight: true)
    case .cancelConcatenation:
      return .concatenate(run("a"), run("b")).cancellable(id: CancelID.concatenation)
    case .cancelConcatenationNow:
      return .cancel(id: CancelID.concatenation)
    case .mapped:
      return Effect<Action>.merge(run("a"), run("b")).map { $0 }
    }
  }

  private func run(_ label: String) -> Effect<Action> {
    .run { [gates] _ in await gates.wait(label) }
  }
}

/// The recorder numbers the runs of each step's effect in pre-order, and records each end, for
/// every shape of effect, run by a real store.
@MainActor
@Suite("Effect numbering")
struct EffectNumberingTests {
  let gates = RunGates()
  let buffer = TraceBuffer()
  let recorder: TraceRecorder
  let store: Store<EffectShapes.State, EffectShapes.Action>

  init() {
    recorder = TraceRecorder(sink: .memory(buffer), options: .init(keyframeInterval: 0))
    store = Store(initialState: EffectShapes.State()) { [gates, recorder] in
      EffectShapes(gates: gates).recording(to: recorder)
    }
  }

  /// The steps (with the effects they started) and effect ends written so far, in order.
  func written() throws -> [String] {
    try recorder.flush()
    return try buffer.lines.compactMap { line -> String? in
      switch try #require(try TraceRecord(json: JSONValue(parsing: line))) {
      case .step(let step): "step \(step.index) \(step.label) effects \(step.effects)"
      case .effect(let event): "effect \(event.effect) \(event.event) of step \(event.step)"
      default: nil
      }
    }
  }

  /// Opens `label`'s gate and waits until one more effect end is written.
  func end(_ label: String) async throws {
    let before = try endCount()
    gates.open(label)
    try await waitForEnds(before + 1)
  }

  func endCount() throws -> Int {
    try written().count { $0.hasPrefix("effect") }
  }

  /// Waits until `count` ends are written.
  func waitForEnds(_ count: Int) async throws {
    try await waitUntil("\(count) ends") { try endCount() >= count }
  }

  /// Waits until the runs labelled `labels` have started, in any order.
  func waitForStarts(_ labels: [String]) async throws {
    try await waitUntil("\(labels) started") { Set(labels).isSubset(of: gates.startedRuns) }
  }

  /// Polls `condition`; gives up, failing the test, only if it stays false for many seconds,
  /// so a run that never ends fails the test instead of hanging it.
  func waitUntil(_ what: String, _ condition: () throws -> Bool) async throws {
    for _ in 0..<60_000 {
      if try condition() { return }
      try await Task.sleep(for: .milliseconds(2))
    }
    Issue.record("never saw \(what); written: \(try written())")
    throw CancellationError()
  }

  @Test("no effect, or only sends: no numbers and no ends")
  func synchronous() async throws {
    store.send(.none)
    store.send(.send)
    #expect(
      try written() == [
        "step 0 .none effects []",
        "step 1 .send effects []",
        "step 2 .sent effects []",
      ])
  }

  @Test("one run: one number, finished when its operation returns")
  func run() async throws {
    store.send(.send)
    store.send(.run)
    try await end("a")
    #expect(
      try written() == [
        "step 0 .send effects []",
        "step 1 .sent effects []",
        "step 2 .run effects [0]",
        "effect 0 finished of step 2",
      ])
  }

  @Test("merged runs are numbered in order, whatever order they end in")
  func merge() async throws {
    store.send(.restart("x"))
    try await end("x")
    store.send(.merge)
    try await end("c")
    try await end("a")
    try await end("b")
    #expect(
      try written() == [
        #"step 0 .restart("x") effects [0]"#,
        "effect 0 finished of step 0",
        "step 1 .merge effects [1, 2, 3]",
        "step 2 .sent effects []",
        "effect 3 finished of step 1",
        "effect 1 finished of step 1",
        "effect 2 finished of step 1",
      ])
  }

  @Test("concatenated runs take their numbers at once and end one after another")
  func concatenate() async throws {
    store.send(.concatenate)
    try await end("a")
    try await end("b")
    try await waitForStarts(["c", "d"])
    try await end("d")
    try await end("c")
    #expect(
      try written() == [
        "step 0 .concatenate effects [0, 1, 2, 3]",
        "step 1 .sent effects []",
        "effect 0 finished of step 0",
        "effect 1 finished of step 0",
        "effect 3 finished of step 0",
        "effect 2 finished of step 0",
      ])
  }

  @Test("runs after a concatenation are numbered after its later runs")
  func nested() async throws {
    store.send(.nested)
    try await end("d")
    try await end("e")
    try await end("a")
    try await waitForStarts(["b", "c"])
    try await end("c")
    try await end("b")
    #expect(
      try written() == [
        "step 0 .nested effects [0, 1, 2, 3, 4]",
        "step 1 .sent effects []",
        "effect 3 finished of step 0",
        "effect 4 finished of step 0",
        "effect 0 finished of step 0",
        "effect 2 finished of step 0",
        "effect 1 finished of step 0",
      ])
  }

  @Test("a cancelled run ends as cancelled; one beside it is not")
  func cancel() async throws {
    store.send(.cancellable)
    try await waitForStarts(["a", "b"])
    store.send(.cancel)
    try await waitForEnds(1)
    try await end("a")
    #expect(
      try written() == [
        "step 0 .cancellable effects [0, 1]",
        "step 1 .cancel effects []",
        "effect 1 cancelled of step 0",
        "effect 0 finished of step 0",
      ])
  }

  @Test("cancelling in flight ends the earlier run as cancelled")
  func cancelInFlight() async throws {
    store.send(.restart("a"))
    try await waitForStarts(["a"])
    store.send(.restart("b"))
    try await waitForEnds(1)
    try await end("b")
    #expect(
      try written() == [
        #"step 0 .restart("a") effects [0]"#,
        #"step 1 .restart("b") effects [1]"#,
        "effect 0 cancelled of step 0",
        "effect 1 finished of step 1",
      ])
  }

  @Test("a concatenation cancelled before its later runs start: they never end")
  func cancelledBeforeLaterRuns() async throws {
    store.send(.cancelConcatenation)
    try await waitForStarts(["a"])
    store.send(.cancelConcatenationNow)
    try await waitForEnds(1)
    store.send(.run)
    try await end("a")
    #expect(
      try written() == [
        "step 0 .cancelConcatenation effects [0, 1]",
        "step 1 .cancelConcatenationNow effects []",
        "effect 0 cancelled of step 0",
        "step 2 .run effects [2]",
        "effect 2 finished of step 2",
      ])
  }

  @Test("mapping an effect keeps its numbering")
  func mapped() async throws {
    store.send(.mapped)
    try await end("b")
    try await end("a")
    #expect(
      try written() == [
        "step 0 .mapped effects [0, 1]",
        "effect 1 finished of step 0",
        "effect 0 finished of step 0",
      ])
  }

  @Test("a recorded child's effects, mapped by its parent's scope, keep their numbering")
  func scopedChild() async throws {
    let parent = Store(initialState: ScopedShapes.State()) { [gates, recorder] in
      Scope(state: \ScopedShapes.State.child, action: /ScopedShapes.Action.child) {
        EffectShapes(gates: gates).recording(to: recorder)
      }
    }
    parent.send(.child(.nested))
    try await end("e")
    try await end("a")
    try await waitForStarts(["b", "c"])
    try await end("c")
    try await end("d")
    try await end("b")
    #expect(
      try written() == [
        "step 0 .nested effects [0, 1, 2, 3, 4]",
        "step 1 .sent effects []",
        "effect 4 finished of step 0",
        "effect 0 finished of step 0",
        "effect 2 finished of step 0",
        "effect 3 finished of step 0",
        "effect 1 finished of step 0",
      ])
  }
}

/// A recorder under a test store: the store's own bookkeeping and the recorder both see every
/// run, and the recorder hears of an end first.
@MainActor
@Suite("Effect numbering under a test store")
struct TestStoreEffectNumberingTests {
  @Test("a recorded effect under a test store is numbered, and recorded as ended by finish")
  func testStore() async throws {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer), options: .init(keyframeInterval: 0))
    let store = TestStore(initialState: Notes.State()) {
      Notes().recording(to: recorder)
    }
    await store.send(.bumpTwice)
    await store.receive(.bump) { $0.count = 1 }
    await store.receive(.bump) { $0.count = 2 }
    await store.send(.load)
    await store.receive(.loaded(7)) { $0.count = 7 }
    await store.finish()
    // Once the test store saw the run end, the recorder had already been told.
    try recorder.flush()
    let written = try buffer.lines.compactMap { line -> String? in
      switch try #require(try TraceRecord(json: JSONValue(parsing: line))) {
      case .step(let step): "step \(step.index) \(step.label) effects \(step.effects)"
      case .effect(let event): "effect \(event.effect) \(event.event) of step \(event.step)"
      default: nil
      }
    }
    #expect(
      written == [
        "step 0 .bumpTwice effects []",
        "step 1 .bump effects []",
        "step 2 .bump effects []",
        "step 3 .load effects [0]",
        "step 4 .loaded(7) effects []",
        "effect 0 finished of step 3",
      ])
  }
}

/// A parent that only scopes ``EffectShapes``.
enum ScopedShapes {
  struct State: Equatable {
    var child = EffectShapes.State()
  }
  enum Action: Equatable {
    case child(EffectShapes.Action)
  }
}
