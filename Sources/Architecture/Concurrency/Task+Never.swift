extension Task where Success == Never, Failure == Never {
  /// Suspends until the current task is cancelled, then throws `CancellationError`.
  ///
  /// A test double for a dependency that never answers, such as a stream of events:
  ///
  /// ```swift
  /// $0.speechClient.requestAuthorization = { try await Task.never() }
  /// ```
  public static func never() async throws -> Never {
    for await element in AsyncStream<Never>.never {
      switch element {}
    }
    throw _Concurrency.CancellationError()
  }

  /// Suspends the current task `count` times, letting other tasks run before it continues.
  ///
  /// A crude way to let scheduled work make progress in tests; prefer a ``TestClock`` or
  /// awaiting the work itself. It makes no promise about how much work the yields allow.
  public static func megaYield(count: Int = 20) async {
    for _ in 0..<count {
      await Task<Void, Never>.detached(priority: .background) { await Task.yield() }.value
    }
  }
}
