import Synchronization

/// The current time of a clock that jumps to each sleep's deadline: shared by a clock's copies.
final class ClockTime<Instant: InstantProtocol>: Sendable {
  private let now: Mutex<Instant>

  init(_ now: Instant) {
    self.now = Mutex(now)
  }

  /// The current time.
  var current: Instant {
    self.now.withLock { $0 }
  }

  /// Moves the time to `deadline`, unless it is already later.
  func advance(to deadline: Instant) {
    self.now.withLock { now in
      if now < deadline { now = deadline }
    }
  }
}
