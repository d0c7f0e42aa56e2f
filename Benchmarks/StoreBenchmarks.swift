import Architecture
import Foundation
import Recorder
import Todos

/// `Store.send` of effect-free actions against calling the reducer directly; and `Store.send`
/// of an action that starts an effect, with and without a recorder.
@MainActor
func storeBenchmarks(_ harness: Harness) -> [Table] {
  [
    storeTable(counterShape, harness, operations: 200_000),
    storeTable(todosFilterShape(count: 1_000), harness, operations: 200_000),
    recordedStoreTable(todosToggleShape(count: 1_000), harness, operations: 1_024),
  ]
}

/// The app thread's time per `Store.send` when each action starts an effect, as a toggle does
/// (a sort a second later, cancelling the previous one): the store starts the effect's task,
/// and with a recorder also numbers the effect for the trace. Both rows send 16 at a time, a
/// burst every 4 ms (`Pacing`), and the recorder's writer catches up in between; the effects'
/// tasks are cancelled by the next toggle, and their ends recorded, on other threads.
@MainActor
private func recordedStoreTable(
  _ shape: Shape<TodosFeature>, _ harness: Harness, operations: Int
) -> Table {
  var table = Table(title: "Store.send, \(shape.name), each starting an effect (per action)")
  let action = shape.action
  let pacing = Pacing(burst: 16, operations: operations)
  func measure(recording: Bool) -> Harness.Figure {
    pacing.measure(harness) { () -> (Store<TodosFeature.State, TodosFeature.Action>, TraceRecorder) in
      let recorder = TraceRecorder(
        sink: .memory(TraceBuffer()), options: .init(queueCapacity: operations + 1))
      let store = Store(initialState: shape.initialState) {
        if recording { TodosFeature().recording(to: recorder) } else { TodosFeature() }
      }
      return (store, recorder)
    } send: { context, index in
      context.0.send(action(index))
    } between: { context in
      try? context.1.flush()
    } tearDown: { context in
      try? context.1.close()
    }
  }
  table.add("Store.send, \(pacing.name) (baseline)", measure(recording: false))
  table.add(
    "Store.send, recording, \(pacing.name)", measure(recording: true),
    baseline: "Store.send, \(pacing.name) (baseline)")
  return table
}

@MainActor
private func storeTable<R: Reducer>(_ shape: Shape<R>, _ harness: Harness, operations: Int)
  -> Table where R.State: Codable, R.Action: Codable
{
  var table = Table(title: "Store.send, \(shape.name) (per action)")
  let reducer = shape.reducer
  let direct = harness.measure(operations: operations) {
    shape.initialState
  } _: { state, index in
    _ = reducer.reduce(into: &state, action: shape.action(index))
  }
  table.add("reducer.reduce (baseline)", direct)
  let viaStore = harness.measure(operations: operations) {
    Store(initialState: shape.initialState) { reducer } withDependencies: { shape.dependencies(&$0) }
  } _: { store, index in
    store.send(shape.action(index))
  }
  table.add("Store.send", viaStore, baseline: "reducer.reduce (baseline)")
  return table
}
