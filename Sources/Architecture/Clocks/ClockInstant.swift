/// An instant of a clock that counts time from its start: the `Instant` of ``TestClock``,
/// ``ImmediateClock``, ``UnimplementedClock`` and ``AnyClock``.
///
/// `Owner` is the clock type, so that instants of different clocks cannot be mixed up.
///
/// ```swift
/// let clock = TestClock()
/// clock.now.offset                             // .zero
/// clock.now.advanced(by: .seconds(2)).offset   // .seconds(2)
/// ```
public struct ClockInstant<Owner, Duration: DurationProtocol & Hashable>: InstantProtocol {
  /// The time since the clock's start.
  public var offset: Duration

  /// Creates the instant `offset` after the clock's start.
  public init(offset: Duration = .zero) {
    self.offset = offset
  }

  /// The instant `duration` after this one.
  public func advanced(by duration: Duration) -> Self {
    Self(offset: self.offset + duration)
  }

  /// The time from this instant to `other`; negative if `other` is earlier.
  public func duration(to other: Self) -> Duration {
    other.offset - self.offset
  }

  /// Whether `lhs` is earlier than `rhs`.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.offset < rhs.offset
  }
}

extension ClockInstant: CustomStringConvertible {
  /// The offset, such as `2.0 seconds`.
  public var description: String {
    "\(self.offset)"
  }
}
