/// The ticks of a clock's timer: an async sequence of instants, one per interval.
///
/// Made by ``_Concurrency/Clock/timer(interval:tolerance:)``. It sleeps on the clock between
/// ticks, so a ``TestClock`` drives it: advancing by `n` intervals yields `n` ticks. It ends when
/// its task is cancelled.
public struct ClockTimerSequence<Duration: DurationProtocol & Hashable>: AsyncSequence, Sendable {
  /// The clock's time at each tick.
  public typealias Element = AnyClock<Duration>.Instant
  /// Never fails: cancellation ends the sequence.
  public typealias Failure = Never

  let clock: AnyClock<Duration>
  let interval: Duration
  let tolerance: Duration?

  /// Returns an iterator that starts counting intervals at its first `next()`.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(clock: self.clock, interval: self.interval, tolerance: self.tolerance)
  }

  /// Produces the ticks, sleeping an interval before each.
  public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
    let clock: AnyClock<Duration>
    let interval: Duration
    let tolerance: Duration?
    var lastDeadline: Element?
    var isFinished = false

    /// Sleeps until the next tick and returns the clock's time, or `nil` once cancelled.
    ///
    /// Ticks fall a whole number of intervals after the first `next()`; a tick that would already
    /// be past (the clock jumped ahead) is moved to an interval from now instead of firing late.
    public mutating func next() async -> Element? {
      guard !self.isFinished, !Task.isCancelled else {
        self.isFinished = true
        return nil
      }
      let now = self.clock.now
      var deadline = (self.lastDeadline ?? now).advanced(by: self.interval)
      // A real clock skips the ticks a slow consumer missed. On a test clock a deadline in the
      // past is not missed: the test advanced time while this task waited to be scheduled, and
      // the tick is still due.
      if deadline < now, !self.clock.isManuallyAdvanced {
        deadline = now.advanced(by: self.interval)
      }
      do {
        try await self.clock.sleep(until: deadline, tolerance: self.tolerance)
      } catch {
        self.isFinished = true
        return nil
      }
      self.lastDeadline = deadline
      return self.clock.now
    }
  }
}
