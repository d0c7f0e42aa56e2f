extension Store {
  /// Sends an action to the store; the animation is accepted and, without SwiftUI, ignored.
  ///
  /// ```swift
  /// store.send(.toggleButtonTapped, animation: .default)
  /// ```
  ///
  /// It behaves exactly like ``send(_:)``.
  @discardableResult
  public func send(_ action: Action, animation: Animation?) -> StoreTask {
    send(action)
  }
}
