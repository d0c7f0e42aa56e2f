import Foundation

// Live is the user's calendar, following their settings; a test reading it without setting it
// reports it, as swift-dependencies does, and gets the live calendar.
private enum CalendarKey: NamedDependencyKey, RecordedDependencyKey {
  static let propertyName = "calendar"
  static let liveValue = Calendar.autoupdatingCurrent

  static func tapped(_ value: any Sendable) -> DependencyTap.Value? {
    (value as? Calendar).map(DependencyTap.Value.calendar)
  }
}

extension DependencyValues {
  /// The calendar a feature does date arithmetic and formatting with.
  ///
  /// It is the user's current calendar in an app. Tests set it, as reading it unset reports an
  /// issue:
  ///
  /// ```swift
  /// @Dependency(\.calendar) var calendar
  /// let tomorrow = calendar.date(byAdding: .day, value: 1, to: now)
  ///
  /// // In a test:
  /// $0.calendar = Calendar(identifier: .gregorian)
  /// ```
  public var calendar: Calendar {
    get { self[CalendarKey.self] }
    set { self[CalendarKey.self] = newValue }
  }
}
