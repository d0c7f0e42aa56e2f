extension AppFeature {
  /// The app's tabs. Switching tabs changes only what is shown: every tab's feature keeps
  /// running, as its state stays in ``AppFeature/State``.
  public enum Tab: String, CaseIterable, Codable, Sendable {
    case counter
    case timers
  }
}
