/// The role of a button in an alert or dialog, as SwiftUI's `ButtonRole`.
public enum ButtonStateRole: String, Hashable, Sendable, Codable {
  /// A button that cancels the alert or dialog.
  case cancel
  /// A button that deletes data or does something that cannot be undone.
  case destructive
}
