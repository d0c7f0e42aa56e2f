import Foundation

/// A dependency that tells the current date: the real one in an app, a fixed one in tests.
///
/// ```swift
/// @Dependency(\.date.now) var now
/// ```
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// Creates a generator from a closure.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date.
  public var now: Date {
    let date = generate()
    DependencyTap.current?.record(.date(date))
    return date
  }

  /// Returns the current date.
  public func callAsFunction() -> Date { now }

  /// A generator of the real date.
  public static let live = DateGenerator { Date() }

  /// A generator that always returns `date`.
  public static func constant(_ date: Date) -> Self { Self { date } }
}

private enum DateGeneratorKey: DependencyKey {
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
