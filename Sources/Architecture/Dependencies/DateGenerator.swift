import Foundation

/// A dependency that tells the current date: the real one in an app, a fixed one in tests.
///
/// ```swift
/// @Dependency(\.date.now) var now
/// ```
///
/// A test fixes it by setting `now`, as swift-dependencies documents:
///
/// ```swift
/// withDependencies {
///   $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
/// } operation: { … }
/// ```
public struct DateGenerator: Sendable {
  private var generate: @Sendable () -> Date

  /// Creates a generator from a closure.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date; setting it makes the generator return that date from then on.
  public var now: Date {
    get {
      let date = generate()
      DependencyTap.current?.record(.date(date))
      return date
    }
    set { generate = { newValue } }
  }

  /// Returns the current date.
  public func callAsFunction() -> Date { now }

  /// A generator of the real date.
  public static let live = DateGenerator { Date() }

  /// A generator that always returns `date`.
  public static func constant(_ date: Date) -> Self { Self { date } }
}

private enum DateGeneratorKey: DependencyKey, BuiltInDependencyKey {
  static let liveValue = DateGenerator.live
  static var testValue: DateGenerator {
    DateGenerator {
      DependencyValues.reportMissingTestValue(for: DateGeneratorKey.self, property: "date")
      return Date()
    }
  }
}

extension DependencyValues {
  /// Tells the current date. Override it in tests with ``DateGenerator/constant(_:)``.
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}
