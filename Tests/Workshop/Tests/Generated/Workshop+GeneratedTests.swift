@testable import Workshop

extension Workshop {
  /// The bench the generated tests run: the one the session recorded.
  static func forGeneratedTests() -> Self { Workshop(benchSize: 2, hourlyRateInPence: 3_000) }
}
