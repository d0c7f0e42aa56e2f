import Foundation
import Testing

/// The slow suite: trials that take seconds to minutes each (random kills, fuzzing, hundreds of
/// hostile hosts and traces, nested package builds), skipped by plain `swift test`.
///
/// ```sh
/// TCA_REPLAY_SLOW_TESTS=1 swift test --filter "$(.ci/slow-tests-filter)"   # the slow suite
/// ```
///
/// A slow suite carries both traits, on its `@Suite` (`.ci/slow-tests-filter` finds the suites
/// to run by `.slowSuite`; `swift test` cannot filter by tag yet):
///
/// ```swift
/// @Suite("Kills", .tags(.slow), .slowSuite)
/// ```
public enum SlowTests {
  /// The environment variable that enables the slow suite when it is `1`.
  public static let environmentVariable = "TCA_REPLAY_SLOW_TESTS"

  /// Whether this run includes the slow suite.
  public static var areEnabled: Bool {
    ProcessInfo.processInfo.environment[environmentVariable] == "1"
  }
}

extension Tag {
  /// A trial of the slow suite, run when `TCA_REPLAY_SLOW_TESTS=1`.
  @Tag public static var slow: Self
}

extension Trait where Self == ConditionTrait {
  /// Enables a test only in the slow suite, when `TCA_REPLAY_SLOW_TESTS=1`.
  public static var slowSuite: Self {
    .enabled(
      if: SlowTests.areEnabled,
      "slow: runs when \(SlowTests.environmentVariable)=1 (the slow suite)"
    )
  }
}
