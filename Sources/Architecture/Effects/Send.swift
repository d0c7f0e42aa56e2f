/// Sends actions from a ``Effect/run(priority:operation:catch:fileID:filePath:line:column:)``
/// effect back into the store.
///
/// ```swift
/// return .run { send in
///   for await _ in clock.timer(interval: .seconds(1)) {
///     await send(.timerTicked)
///   }
/// }
/// ```
///
/// Once the effect's task is cancelled, sending does nothing.
@MainActor
public struct Send<Action>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void

  /// Creates a sender from a closure; useful when testing code that takes a `Send`.
  public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends `action` back into the store, unless the effect's task is cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }
}
