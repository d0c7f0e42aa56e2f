extension TestStore {
  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then puts the previous
  /// setting back, even if `operation` throws.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.refresh)
  ///   await store.receive(/Feature.Action.response) {
  ///     $0.items = [.sample]
  ///   }
  /// }
  /// // Exhaustive again from here.
  /// ```
  @discardableResult
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try await operation()
  }

  /// Runs the synchronous `operation` with ``exhaustivity`` set to `exhaustivity`, then puts
  /// the previous setting back.
  ///
  /// ```swift
  /// store.withExhaustivity(.off) {
  ///   store.assert { $0.isLoading = false }
  /// }
  /// ```
  @discardableResult
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () throws -> R
  ) rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try operation()
  }
}
