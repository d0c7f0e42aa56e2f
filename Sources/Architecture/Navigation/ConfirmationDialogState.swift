import Foundation

/// A confirmation dialog (action sheet) as data: its title, whether the title shows, buttons
/// and message.
///
/// ```swift
/// state.confirmationDialog = ConfirmationDialogState(titleVisibility: .visible) {
///   TextState("Share")
/// } actions: {
///   ButtonState(action: .copyLinkButtonTapped) { TextState("Copy link") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// } message: {
///   TextState("Choose how to share.")
/// }
/// ```
///
/// It is `Equatable`, `Hashable` and `Codable` when `Action` is, like ``AlertState``, and its
/// random ``id`` is left out of all three.
public struct ConfirmationDialogState<Action>: Identifiable {
  /// This dialog's identity, new for every dialog made.
  public let id: UUID
  /// The dialog's buttons, in order.
  public var buttons: [ButtonState<Action>]
  /// The text below the title, if any.
  public var message: TextState?
  /// The dialog's title.
  public var title: TextState
  /// Whether the title is shown.
  public var titleVisibility: ConfirmationDialogStateTitleVisibility

  /// A dialog with a title, buttons and an optional message.
  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// A dialog from its parts, as TCA 0.x wrote it.
  public init(
    title: TextState,
    titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic,
    message: TextState? = nil,
    buttons: [ButtonState<Action>] = []
  ) {
    self.init(
      id: UUID(), title: title, titleVisibility: titleVisibility, message: message,
      buttons: buttons)
  }

  private init(
    id: UUID,
    title: TextState,
    titleVisibility: ConfirmationDialogStateTitleVisibility,
    message: TextState?,
    buttons: [ButtonState<Action>]
  ) {
    self.id = id
    self.title = title
    self.titleVisibility = titleVisibility
    self.message = message
    self.buttons = buttons
  }

  /// Transforms the actions the dialog's buttons send.
  public func map<NewAction>(
    _ transform: (Action?) -> NewAction?
  ) -> ConfirmationDialogState<NewAction> {
    ConfirmationDialogState<NewAction>(
      id: id,
      title: title,
      titleVisibility: titleVisibility,
      message: message,
      buttons: buttons.map { $0.map(transform) }
    )
  }
}

/// Whether a confirmation dialog shows its title.
public enum ConfirmationDialogStateTitleVisibility: String, Hashable, Sendable, Codable {
  /// The platform decides.
  case automatic
  /// The title is hidden.
  case hidden
  /// The title is shown.
  case visible
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.titleVisibility == rhs.titleVisibility
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(titleVisibility)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}
extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case titleVisibility, title, actions, message
  }

  /// Encodes `{"titleVisibility": "visible", "title": …, "actions": […], "message": …}`;
  /// `message` is left out when there is none.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(titleVisibility, forKey: .titleVisibility)
    try container.encode(title, forKey: .title)
    try container.encode(buttons, forKey: .actions)
    try container.encodeIfPresent(message, forKey: .message)
  }

  /// Decodes what ``encode(to:)`` writes; a missing `titleVisibility` is `automatic`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      title: try container.decode(TextState.self, forKey: .title),
      titleVisibility: try container.decodeIfPresent(
        ConfirmationDialogStateTitleVisibility.self, forKey: .titleVisibility
      ) ?? .automatic,
      message: try container.decodeIfPresent(TextState.self, forKey: .message),
      buttons: try container.decodeIfPresent([ButtonState<Action>].self, forKey: .actions) ?? []
    )
  }
}

extension ConfirmationDialogState: CustomDumpReflectable {
  /// Dumps as `ConfirmationDialogState(titleVisibility: …, title: …, actions: […],
  /// message: …)`.
  package var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [
      ("titleVisibility", titleVisibility), ("title", title),
    ]
    if !buttons.isEmpty { children.append(("actions", buttons)) }
    if let message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
