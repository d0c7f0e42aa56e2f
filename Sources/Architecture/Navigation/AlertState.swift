import Foundation

/// An alert as data: its title, buttons and message, kept in a feature's state.
///
/// A feature presents an alert by setting it, and its buttons' actions come back through
/// `PresentationAction`:
///
/// ```swift
/// state.alert = AlertState {
///   TextState("Delete \"\(item.name)\"?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmDeletion) {
///     TextState("Delete")
///   }
///   ButtonState(role: .cancel) {
///     TextState("Cancel")
///   }
/// } message: {
///   TextState("This cannot be undone.")
/// }
/// ```
///
/// It is `Equatable` and `Hashable` when `Action` is, so tests compare it, and `Codable` when
/// `Action` is, so recordings hold it. Its random ``id`` tells one alert from another with the
/// same text: equality, hashing and encoding leave it out, so recorded states stay
/// deterministic.
public struct AlertState<Action>: Identifiable {
  /// This alert's identity, new for every alert made: a parent that shows a new alert while
  /// handling the old one's button keeps the new one presented.
  public let id: UUID
  /// The alert's buttons, in order.
  public var buttons: [ButtonState<Action>]
  /// The text below the title, if any.
  public var message: TextState?
  /// The alert's title.
  public var title: TextState

  /// An alert with a title, buttons and an optional message.
  ///
  /// Without buttons, the alert shows a single "OK" button that only dismisses it.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// An alert from its parts, as TCA 0.x wrote it.
  public init(
    title: TextState,
    message: TextState? = nil,
    buttons: [ButtonState<Action>] = []
  ) {
    self.init(id: UUID(), title: title, message: message, buttons: buttons)
  }

  private init(id: UUID, title: TextState, message: TextState?, buttons: [ButtonState<Action>]) {
    self.id = id
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// Transforms the actions the alert's buttons send; the result is the same alert.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> AlertState<NewAction> {
    AlertState<NewAction>(
      id: id, title: title, message: message, buttons: buttons.map { $0.map(transform) }
    )
  }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}
extension AlertState: Sendable where Action: Sendable {}

extension AlertState: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case title, actions, message
  }

  /// Encodes `{"title": …, "actions": [ButtonState…], "message": …}`; `message` is left out
  /// when there is none.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(title, forKey: .title)
    try container.encode(buttons, forKey: .actions)
    try container.encodeIfPresent(message, forKey: .message)
  }

  /// Decodes what ``encode(to:)`` writes; missing `actions` mean no buttons.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      title: try container.decode(TextState.self, forKey: .title),
      message: try container.decodeIfPresent(TextState.self, forKey: .message),
      buttons: try container.decodeIfPresent([ButtonState<Action>].self, forKey: .actions) ?? []
    )
  }
}

extension AlertState: CustomDumpReflectable {
  /// Dumps as `AlertState(title: …, actions: […], message: …)`, in the order it is written.
  package var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", title)]
    if !buttons.isEmpty { children.append(("actions", buttons)) }
    if let message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
