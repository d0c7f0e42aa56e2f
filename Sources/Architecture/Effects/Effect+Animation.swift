extension Effect {
  /// An effect that immediately sends `action`; the animation is accepted and ignored on Linux.
  ///
  /// ```swift
  /// case .closeButtonTapped:
  ///   return .send(.delegate(.close), animation: .easeOut)
  /// ```
  ///
  /// It behaves exactly like ``send(_:)``.
  public static func send(_ action: Action, animation: Animation?) -> Self {
    .send(action)
  }
}
