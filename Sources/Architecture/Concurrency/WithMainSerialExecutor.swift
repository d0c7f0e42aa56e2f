/// Runs `operation`; on Apple platforms this would also run every task serially on the main
/// thread, which Linux cannot do.
///
/// ConcurrencyExtras swaps the global enqueue hook of the Swift runtime so that every task,
/// structured or not, is scheduled serially on the main actor, making async tests
/// deterministic. Linux builds of the runtime expose no such hook to a library, so here the
/// operation simply runs with the ordinary executors: tasks it starts still run in parallel on
/// the cooperative pool, and tests must not rely on the order of work that is not awaited.
/// `TestClock` and awaiting effects with `TestStore` give determinism without it.
///
/// ```swift
/// @Test func timer() async {
///   await withMainSerialExecutor {
///     let store = TestStore(initialState: Feature.State()) { Feature() }
///     await store.send(.startButtonTapped)
///   }
/// }
/// ```
@MainActor
public func withMainSerialExecutor(
  operation: @MainActor () async throws -> Void
) async rethrows {
  try await operation()
}

/// Runs `operation` synchronously; see the async ``withMainSerialExecutor(operation:)-async``
/// for why Linux cannot make tasks serial.
public func withMainSerialExecutor(operation: () throws -> Void) rethrows {
  try operation()
}
