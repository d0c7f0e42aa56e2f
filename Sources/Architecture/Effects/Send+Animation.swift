extension Send {
  /// Sends `action` back into the store; the animation is accepted and, without SwiftUI, ignored.
  ///
  /// ```swift
  /// await send(.factResponse(fact), animation: .default)
  /// ```
  ///
  /// Like ``callAsFunction(_:)``, it does nothing once the effect's task is cancelled.
  public func callAsFunction(_ action: Action, animation: Animation?) {
    callAsFunction(action)
  }
}
