/// What tapping a button in an alert or dialog sends: an action, optionally with an animation.
///
/// ```swift
/// ButtonState(action: .send(.confirmDeletion, animation: .default)) {
///   TextState("Delete")
/// }
/// ```
public struct ButtonStateAction<Action> {
  /// The action to send, or `nil` for a button that only dismisses.
  public let action: Action?
  /// The animation to send the action with; accepted and ignored on Linux.
  public let animation: Animation?

  init(action: Action?, animation: Animation? = nil) {
    self.action = action
    self.animation = animation
  }

  /// Sends `action` when the button is tapped, with `animation` if given.
  public static func send(_ action: Action, animation: Animation? = nil) -> Self {
    Self(action: action, animation: animation)
  }

  /// Transforms the action.
  public func map<NewAction>(
    _ transform: (Action?) -> NewAction?
  ) -> ButtonStateAction<NewAction> {
    ButtonStateAction<NewAction>(action: transform(action), animation: animation)
  }
}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

extension ButtonStateAction: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case send, animation
  }

  /// Encodes `{"send": action}`, with `"animation"` when there is one.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(action, forKey: .send)
    try container.encodeIfPresent(animation, forKey: .animation)
  }

  /// Decodes what ``encode(to:)`` writes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      action: try container.decodeIfPresent(Action.self, forKey: .send),
      animation: try container.decodeIfPresent(Animation.self, forKey: .animation)
    )
  }
}

extension ButtonStateAction: CustomDumpReflectable {
  /// Dumps as `.send(action)`, or `.send(action, animation: …)`.
  package var customDumpMirror: Mirror {
    let payload: Any =
      if let animation { (action as Any, animation: animation) } else { action as Any }
    return Mirror(self, children: ["send": payload], displayStyle: .enum)
  }
}
