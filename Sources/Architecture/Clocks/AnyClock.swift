/// A type-erased clock: any clock measured in `Duration`, as one concrete type.
///
/// Its time is the wrapped clock's, counted from when it was wrapped; sleeping sleeps on the
/// wrapped clock.
///
/// ```swift
/// let clock = AnyClock(TestClock())
/// let clocks: [AnyClock<Duration>] = [AnyClock(ContinuousClock()), AnyClock(ImmediateClock())]
/// ```
public struct AnyClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
  /// An instant of a type-erased clock: its offset from when the clock was wrapped.
  public typealias Instant = ClockInstant<AnyClock, Duration>

  private let _now: @Sendable () -> Instant
  private let _minimumResolution: @Sendable () -> Duration
  private let _sleep: @Sendable (Instant, Duration?) async throws -> Void
  /// Whether the wrapped clock's time moves only when a test advances it.
  let isManuallyAdvanced: Bool

  /// Wraps a clock.
  public init<C: Clock>(_ clock: C) where C.Duration == Duration {
    self.isManuallyAdvanced = clock is any ManuallyAdvancedClock
    let start = clock.now
    self._now = { Instant(offset: start.duration(to: clock.now)) }
    self._minimumResolution = { clock.minimumResolution }
    self._sleep = { deadline, tolerance in
      try await clock.sleep(until: start.advanced(by: deadline.offset), tolerance: tolerance)
    }
  }

  /// The wrapped clock's time since it was wrapped.
  public var now: Instant {
    self._now()
  }

  /// The wrapped clock's minimum resolution.
  public var minimumResolution: Duration {
    self._minimumResolution()
  }

  /// Sleeps on the wrapped clock until `deadline`.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await self._sleep(deadline, tolerance)
  }
}

/// A clock whose time moves only when a test advances it, such as ``TestClock``.
protocol ManuallyAdvancedClock {}
