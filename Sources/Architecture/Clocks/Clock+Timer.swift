extension Clock where Duration: Hashable {
  /// Returns an async sequence that ticks every `interval`, by sleeping on this clock.
  ///
  /// This is the timer of TCA's tutorial; it also works on an `any Clock<Duration>` dependency:
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  ///
  /// return .run { send in
  ///   for await _ in self.clock.timer(interval: .seconds(1)) {
  ///     await send(.timerTicked)
  ///   }
  /// }
  /// ```
  ///
  /// The sequence ends when the task iterating it is cancelled. With a ``TestClock``, advancing
  /// by `n` intervals produces exactly `n` ticks.
  public func timer(
    interval: Duration,
    tolerance: Duration? = nil
  ) -> ClockTimerSequence<Duration> {
    ClockTimerSequence(clock: AnyClock(self), interval: interval, tolerance: tolerance)
  }
}
