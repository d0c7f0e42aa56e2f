/// How strictly a ``TestStore`` checks that a test accounts for everything a feature does.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, received action and running effect must be asserted. The default.
  case on
  /// Only what the test asserts is checked; unasserted actions and effects are skipped.
  ///
  /// With `showSkippedAssertions`, what was skipped is printed.
  case off(showSkippedAssertions: Bool)

  /// Only what the test asserts is checked, silently.
  public static let off = Self.off(showSkippedAssertions: false)
}
