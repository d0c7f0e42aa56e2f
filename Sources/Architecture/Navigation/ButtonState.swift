/// A button of an alert or dialog as data: its role, the action it sends and its label.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) {
///   TextState("Delete")
/// }
/// ButtonState(role: .cancel) {
///   TextState("Cancel")
/// }
/// ```
///
/// SwiftUI-navigation also gives each button a random `id`; it is left out here, so that
/// recorded states are deterministic. Equality never looked at it.
public struct ButtonState<Action> {
  /// The button's role, if any.
  public let role: ButtonStateRole?
  /// What tapping the button sends.
  public let action: ButtonStateAction<Action>
  /// The button's label.
  public let label: TextState

  /// A button that sends `action` when tapped.
  public init(
    role: ButtonStateRole? = nil,
    action: ButtonStateAction<Action>,
    label: () -> TextState
  ) {
    self.role = role
    self.action = action
    self.label = label()
  }

  /// A button that sends `action` when tapped.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(role: role, action: .send(action), label: label)
  }

  /// A button that sends nothing: tapping it only dismisses the alert or dialog.
  public init(role: ButtonStateRole? = nil, label: () -> TextState) {
    self.init(role: role, action: ButtonStateAction(action: nil), label: label)
  }

  init(role: ButtonStateRole?, action: ButtonStateAction<Action>, label: TextState) {
    self.role = role
    self.action = action
    self.label = label
  }

  /// Calls `perform` with the action the button sends, as a view does when it is tapped.
  public func withAction(_ perform: (Action?) -> Void) {
    perform(action.action)
  }

  /// Calls `perform` with the action the button sends, as a view does when it is tapped.
  public func withAction(_ perform: (Action?) async -> Void) async {
    await perform(action.action)
  }

  /// Transforms the action the button sends.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonState<NewAction> {
    ButtonState<NewAction>(role: role, action: action.map(transform), label: label)
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case role, action, label
  }

  /// Encodes `{"role": "destructive", "action": {"send": …}, "label": "Delete"}`; a button
  /// without a role leaves `role` out, and one that sends nothing leaves `action` out.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(role, forKey: .role)
    if action.action != nil || action.animation != nil {
      try container.encode(action, forKey: .action)
    }
    try container.encode(label, forKey: .label)
  }

  /// Decodes what ``encode(to:)`` writes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      role: try container.decodeIfPresent(ButtonStateRole.self, forKey: .role),
      action: try container.decodeIfPresent(ButtonStateAction<Action>.self, forKey: .action)
        ?? ButtonStateAction(action: nil),
      label: try container.decode(TextState.self, forKey: .label)
    )
  }
}

extension ButtonState: CustomDumpReflectable {
  /// Dumps the role only when there is one, and the action only when the button sends one.
  package var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if let role { children.append(("role", role)) }
    if action.action != nil { children.append(("action", action)) }
    children.append(("label", label))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
