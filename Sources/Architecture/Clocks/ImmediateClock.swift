/// A clock whose sleeps return at once, moving its time to their deadlines.
///
/// Use it in tests that sleep but do not care how long: the code runs without waiting, and
/// `now` shows the time the sleeps added up to.
///
/// ```swift
/// let clock = ImmediateClock()
/// try await clock.sleep(for: .seconds(5))  // returns at once
/// clock.now.offset                         // .seconds(5)
/// ```
///
/// Copies share one time. A sleep in a cancelled task throws `CancellationError`.
public struct ImmediateClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
  /// An instant of an immediate clock: its offset from the clock's start.
  public typealias Instant = ClockInstant<ImmediateClock, Duration>

  private let time: ClockTime<Instant>

  /// Creates an immediate clock whose time starts at `now`.
  public init(now: Instant = .init()) {
    self.time = ClockTime(now)
  }

  /// The clock's current time: its start plus the sleeps so far.
  public var now: Instant {
    self.time.current
  }

  /// The smallest step the clock measures: `.zero`.
  public var minimumResolution: Duration {
    .zero
  }

  /// Returns at once, after moving the clock's time to `deadline` if that is later.
  ///
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    self.time.advance(to: deadline)
  }
}

extension ImmediateClock where Duration == Swift.Duration {
  /// Creates an immediate clock measured in `Duration`, starting at offset zero.
  ///
  /// ```swift
  /// withDependencies { $0.continuousClock = ImmediateClock() } operation: { … }
  /// ```
  public init() {
    self.init(now: .init())
  }
}

extension Clock where Self == ImmediateClock<Swift.Duration> {
  /// A new immediate clock, as in `$0.continuousClock = .immediate`.
  public static var immediate: Self {
    ImmediateClock()
  }
}
