import Foundation

// Live is the user's time zone, following their settings; a test reading it without setting it
// reports it, as swift-dependencies does, and gets the live time zone.
private enum TimeZoneKey: NamedDependencyKey, RecordedDependencyKey {
  static let propertyName = "timeZone"
  static let liveValue = TimeZone.autoupdatingCurrent

  static func tapped(_ value: any Sendable) -> DependencyTap.Value? {
    (value as? TimeZone).map(DependencyTap.Value.timeZone)
  }
}

extension DependencyValues {
  /// The time zone a feature shows times in and splits days by.
  ///
  /// It is the user's current time zone in an app. Tests set it, as reading it unset reports an
  /// issue:
  ///
  /// ```swift
  /// @Dependency(\.timeZone) var timeZone
  /// var calendar = Calendar(identifier: .gregorian)
  /// calendar.timeZone = timeZone
  ///
  /// // In a test:
  /// $0.timeZone = TimeZone(secondsFromGMT: 0)!
  /// ```
  public var timeZone: TimeZone {
    get { self[TimeZoneKey.self] }
    set { self[TimeZoneKey.self] = newValue }
  }
}
