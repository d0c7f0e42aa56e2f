import Synchronization
/// Runs `operation` so that it can be cancelled by `id`, from a reducer's
/// ``Effect/cancel(id:)`` or from a later operation started with `cancelInFlight`.
///
/// Use it inside a `.run` effect, for example to debounce a search:
///
/// ```swift
/// case let .searchQueryChanged(query):
///   state.query = query
///   return .run { send in
///     try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
///       try await clock.sleep(for: .milliseconds(300))
///       await send(.searchResponse(try await client.search(query)))
///     }
///   }
/// ```
///
/// Ids are scoped like ``Effect/cancellable(id:cancelInFlight:)``'s: per root store, and per
/// feature under `ifLet`, `ifCaseLet` and `forEach`. A reducer's `.cancel(id:)` and a
/// `.cancellable(id:cancelInFlight: true)` effect cancel these operations too; this function's
/// own `cancelInFlight` cancels earlier operations only, not effects marked `.cancellable` with
/// the id. Outside an effect (a plain task), ids are shared by all such callers, and only
/// `cancelInFlight` can cancel them.
///
/// The operation runs in its own task, which inherits the caller's task-locals and priority;
/// cancelling the caller cancels it too. When it is cancelled, it returns or throws as it
/// chooses; a `CancellationError` thrown inside a `.run` effect is swallowed there.
///
/// - Parameters:
///   - id: The operation's cancellation id.
///   - cancelInFlight: Whether to cancel operations already running with the same id first.
///   - operation: The work to run.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws; the function throws only if `operation` can.
public func withTaskCancellation<T: Sendable, Failure: Error>(
  id: some Hashable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws(Failure) -> T
) async throws(Failure) -> T {
  let registry = TaskCancellations.current ?? .outsideStores
  let id = CancelID(id)
  // In a test store's effect the operation runs serially too, as the effect does.
  let task = Task<T, any Error>.inheritingMainSerialExecutor { try await operation() }
  let key = registry.insert(id, cancelInFlight: cancelInFlight) { task.cancel() }
  defer { registry.remove(id, key: key) }
  do {
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  } catch {
    // The task only runs `operation`, so this is the operation's own error.
    throw error as! Failure
  }
}

/// The operations that `withTaskCancellation` is running for one root store, by id.
///
/// Lock-protected rather than isolated to the store's actor, so that an operation registers,
/// and a reducer's `.cancel(id:)` reaches it, without waiting for a hop.
final class TaskCancellations: Sendable {
  /// The registry of the store whose effect is running; set by the store for its effects' tasks.
  @TaskLocal static var current: TaskCancellations?

  /// Used by operations that run outside any store's effect.
  static let outsideStores = TaskCancellations()

  private struct Operations {
    var byID: [CancelID: [Int: @Sendable () -> Void]] = [:]
    var nextKey = 0
  }

  private let operations = Mutex(Operations())
  /// How many ids have operations: read without the lock, so that cancelling an id, which the
  /// store does for every cancellable effect, costs nothing while no operation runs.
  private let registered = Atomic<Int>(0)

  /// Registers an operation's cancel action under `id`, first cancelling the operations
  /// running under it if `cancelInFlight`; returns the key to remove it with.
  func insert(
    _ id: CancelID, cancelInFlight: Bool, cancel: @escaping @Sendable () -> Void
  ) -> Int {
    let (key, cancelled) = operations.withLock {
      operations -> (Int, [Int: @Sendable () -> Void]?) in
      let cancelled = cancelInFlight ? operations.byID.removeValue(forKey: id) : nil
      let key = operations.nextKey
      operations.nextKey += 1
      if operations.byID[id] == nil { registered.add(1, ordering: .relaxed) }
      operations.byID[id, default: [:]][key] = cancel
      if cancelled != nil { registered.subtract(1, ordering: .relaxed) }
      return (key, cancelled)
    }
    // Outside the lock: a task's cancellation handlers run synchronously.
    cancelled?.values.forEach { $0() }
    return key
  }

  /// Removes an operation that ended.
  func remove(_ id: CancelID, key: Int) {
    operations.withLock { operations in
      operations.byID[id]?[key] = nil
      if operations.byID[id]?.isEmpty == true {
        operations.byID[id] = nil
        registered.subtract(1, ordering: .relaxed)
      }
    }
  }

  /// Cancels every operation running under `id`.
  func cancel(_ id: CancelID) {
    // Most cancelled ids name no operation, and most stores run none.
    guard registered.load(ordering: .relaxed) > 0,
      let cancelled = operations.withLock({ operations -> [Int: @Sendable () -> Void]? in
        let cancelled = operations.byID.removeValue(forKey: id)
        if cancelled != nil { registered.subtract(1, ordering: .relaxed) }
        return cancelled
      })
    else { return }
    cancelled.values.forEach { $0() }
  }
}
