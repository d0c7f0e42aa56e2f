import Architecture

/// The time on the store's `continuousClock` when it is a test or an immediate clock.
///
/// A session driven by a test clock moves that clock, not the wall time `time` records, so a
/// generated test could not tell from `time` how far to advance its own clock before a timer
/// fires. A live clock keeps time with `time`, and is not read.
@usableFromInline
enum RecordingClockTime {
  /// The offset from the clock's start, in seconds; `nil` for any other clock.
  @usableFromInline
  static func now() -> Double? {
    // Only an override can be a test or an immediate clock: the defaults are neither. Reading
    // the override as stored skips the cast to `any Clock<Duration>` a read makes, which cost
    // most of the app thread's work per step; a cast to the concrete clock types is cheap.
    guard let clock = DependencyValues._current.overriddenContinuousClock else { return nil }
    if let clock = clock as? TestClock<Duration> { return seconds(clock.now.offset) }
    if let clock = clock as? ImmediateClock<Duration> { return seconds(clock.now.offset) }
    return nil
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (whole, attoseconds) = duration.components
    return Double(whole) + Double(attoseconds) / 1e18
  }
}
