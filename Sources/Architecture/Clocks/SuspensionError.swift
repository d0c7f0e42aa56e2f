/// The error ``TestClock/checkSuspension()`` throws when tasks are still sleeping on the clock.
///
/// ```swift
/// try await clock.checkSuspension()  // throws if a sleep is still waiting for an advance
/// ```
public struct SuspensionError: Error, Equatable, CustomStringConvertible {
  /// How many sleeps were waiting.
  public var sleepCount: Int

  /// Creates the error for `sleepCount` waiting sleeps.
  public init(sleepCount: Int) {
    self.sleepCount = sleepCount
  }

  /// What went wrong, in a sentence.
  public var description: String {
    let verb = sleepCount == 1 ? "is" : "are"
    return "Expected no sleeps to be suspended on the test clock, but \(sleepCount) \(verb)."
  }
}
