private enum ContinuousClockKey: DependencyKey, BuiltInDependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static var testValue: any Clock<Duration> {
    UnimplementedClock<Duration>(name: "ContinuousClock")
  }
}

private enum SuspendingClockKey: DependencyKey, BuiltInDependencyKey {
  static let liveValue: any Clock<Duration> = SuspendingClock()
  static var testValue: any Clock<Duration> {
    UnimplementedClock<Duration>(name: "SuspendingClock")
  }
}

extension DependencyValues {
  /// The clock effects sleep on and time with. Override it in tests with a `TestClock` or an
  /// `ImmediateClock`; an unset clock reports `Unimplemented: ContinuousClock.sleep`.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  /// for await _ in clock.timer(interval: .seconds(1)) { … }
  /// ```
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// A clock that does not advance while the system sleeps. Override it in tests like
  /// ``continuousClock``.
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }

  /// The continuous clock these dependencies were given, as given, or `nil`: what the recorder
  /// looks at on every step, without the cast to `any Clock<Duration>` that reading
  /// ``continuousClock`` costs.
  package var continuousClockOverride: (any Sendable)? {
    storedValue(for: ContinuousClockKey.self)
  }
}
