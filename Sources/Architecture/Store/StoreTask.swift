/// The effects started by one ``Store/send(_:)``, to await or cancel.
///
/// ```swift
/// let task = store.send(.task)
/// …
/// task.cancel()
/// ```
public struct StoreTask: Hashable, Sendable {
  let rawValue: Task<Void, Never>?

  init(rawValue: Task<Void, Never>?) {
    self.rawValue = rawValue
  }

  /// Cancels the effects.
  public func cancel() {
    rawValue?.cancel()
  }

  /// Waits for the effects to finish.
  public func finish() async {
    await rawValue?.value
  }

  /// Whether the effects were cancelled; `true` when there were none.
  public var isCancelled: Bool {
    rawValue?.isCancelled ?? true
  }
}
