/// Runs `operation` with its async work serialized on the main actor, as far as Linux allows.
///
/// ConcurrencyExtras swaps a global hook of the Swift runtime so that every task in the process
/// runs serially on the main thread. A hook is process-wide and Swift Testing runs tests in
/// parallel, so here `operation` runs with a preference (SE-0417) for an executor that runs
/// jobs on the main actor: the nonisolated functions it awaits, its child tasks (`async let`,
/// task groups) and the default actors it calls run one at a time on the main actor. A
/// `Task { … }` it starts does not inherit the preference and runs in parallel.
///
/// A ``TestStore`` already runs its effects this way (``TestStore/useMainSerialExecutor``), so
/// tests of features need no wrapper; it is for async code tested outside a store.
///
/// ```swift
/// @Test func loadsInOrder() async {
///   await withMainSerialExecutor {
///     async let first = model.load(1)
///     async let second = model.load(2)
///     _ = await (first, second)
///   }
/// }
/// ```
@MainActor
public func withMainSerialExecutor(
  operation: @MainActor () async throws -> Void
) async rethrows {
  guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
    return try await operation()
  }
  try await withTaskExecutorPreference(MainSerialExecutor.shared) {
    try await operation()
  }
}

/// Runs `operation` synchronously: synchronous code has no tasks to serialize.
public func withMainSerialExecutor(operation: () throws -> Void) rethrows {
  try operation()
}
