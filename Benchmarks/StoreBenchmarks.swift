import Architecture

/// `Store.send` of effect-free actions against calling the reducer directly.
@MainActor
func storeBenchmarks(_ harness: Harness) -> [Table] {
  [
    storeTable(counterShape, harness, operations: 200_000),
    storeTable(todosFilterShape(count: 1_000), harness, operations: 200_000),
  ]
}

@MainActor
private func storeTable<R: Reducer>(_ shape: Shape<R>, _ harness: Harness, operations: Int)
  -> Table
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
