import Foundation

// Live is the user's locale, following their settings; a test reading it without setting it
// reports it, as swift-dependencies does, and gets the live locale.
private enum LocaleKey: NamedDependencyKey, RecordedDependencyKey {
  static let propertyName = "locale"
  static let liveValue = Locale.autoupdatingCurrent

  static func tapped(_ value: any Sendable) -> DependencyTap.Value? {
    (value as? Locale).map(DependencyTap.Value.locale)
  }
}

extension DependencyValues {
  /// The locale a feature formats numbers, dates and text for.
  ///
  /// It is the user's current locale in an app. Tests set it, as reading it unset reports an
  /// issue:
  ///
  /// ```swift
  /// @Dependency(\.locale) var locale
  /// let price = amount.formatted(.currency(code: "EUR").locale(locale))
  ///
  /// // In a test:
  /// $0.locale = Locale(identifier: "en_US_POSIX")
  /// ```
  public var locale: Locale {
    get { self[LocaleKey.self] }
    set { self[LocaleKey.self] = newValue }
  }
}
