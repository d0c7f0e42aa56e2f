/// A clock whose time moves only when a test advances it, for testing code that sleeps.
///
/// Sleeping on a test clock suspends until ``advance(by:)`` or ``advance(to:)`` moves its time to
/// or past the sleep's deadline. Sleepers wake in deadline order (first come, first served for
/// equal deadlines), each one running before the next wakes, so work a woken task schedules
/// before the advance's target also happens within the advance:
///
/// ```swift
/// @Test func timer() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Timer.State()) {
///     Timer()
///   } withDependencies: {
///     $0.continuousClock = clock
///   }
///   await store.send(.startButtonTapped)
///   await clock.advance(by: .seconds(1))
///   await store.receive(.timerTicked) { $0.count = 1 }
///   await store.send(.stopButtonTapped)
/// }
/// ```
///
/// ``run(timeout:fileID:filePath:line:column:)`` advances until nothing sleeps, and
/// ``checkSuspension()`` proves that nothing does. Cancelling a sleeping task wakes it with a
/// `CancellationError`.
///
/// After waking a sleeper, the clock waits until that task is running again, then yields to the
/// executor so the task can reach its next suspension; on a serial executor (TCA's test store
/// runs effects on one) this is exact, on the global concurrent executor a heuristic.
// unchecked: all mutable state is in `state`, read and written only under `lock`
public final class TestClock<Duration: DurationProtocol & Hashable>: Clock, @unchecked Sendable {
  /// An instant of a test clock: its offset from the clock's start.
  public typealias Instant = ClockInstant<TestClock, Duration>

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: UnsafeContinuation<Void, any Error>
  }

  private struct State {
    var now: Instant
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    /// The `advance` waiting for a woken sleeper to run, by the sleeper's id.
    var wakeAcknowledgements: [UInt64: UnsafeContinuation<Void, Never>] = [:]

    /// Removes and returns the sleeper to wake first, if its deadline is at or before `deadline`.
    mutating func removeFirstSleeper(dueBy deadline: Instant) -> Sleeper? {
      var first: Int?
      for (index, sleeper) in sleepers.enumerated() {
        // `<` keeps the earliest-registered of equal deadlines: sleepers are in arrival order.
        if sleeper.deadline <= deadline,
          first.map({ sleeper.deadline < sleepers[$0].deadline }) ?? true
        {
          first = index
        }
      }
      return first.map { sleepers.remove(at: $0) }
    }
  }

  private enum SleepOutcome { case suspend, resume, cancel }

  private let lock = Lock()
  private var state: State

  /// Creates a test clock whose time starts at `now`.
  public init(now: Instant = .init()) {
    self.state = State(now: now)
  }

  /// The clock's current time; it changes only when the clock is advanced.
  public var now: Instant {
    self.lock.withLock { self.state.now }
  }

  /// The smallest step the clock measures: `.zero`, time moves exactly as far as it is advanced.
  public var minimumResolution: Duration {
    .zero
  }

  /// Suspends until the clock is advanced to or past `deadline`.
  ///
  /// A deadline already in the past returns at once; a deadline equal to `now` waits for the next
  /// advance, even `advance(by: .zero)`.
  ///
  /// - Throws: `CancellationError` if the task is cancelled before or while sleeping.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = self.lock.withLock {
      self.state.nextID += 1
      return self.state.nextID
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation {
        (continuation: UnsafeContinuation<Void, any Error>) in
        let outcome: SleepOutcome = self.lock.withLock {
          // Checked under the lock: the cancellation handler either ran before (and found no
          // sleeper) or runs after the sleeper is registered (and removes it).
          if Task.isCancelled { return .cancel }
          if deadline < self.state.now { return .resume }
          self.state.sleepers.append(
            Sleeper(id: id, deadline: deadline, continuation: continuation)
          )
          return .suspend
        }
        switch outcome {
        case .suspend: break
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper: Sleeper? = self.lock.withLock {
        guard let index = self.state.sleepers.firstIndex(where: { $0.id == id }) else {
          return nil
        }
        return self.state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
    // Running again: let the `advance` that woke this task go on.
    self.lock.withLock { self.state.wakeAcknowledgements.removeValue(forKey: id) }?.resume()
    try Task.checkCancellation()
  }

  /// Moves the clock's time forward by `duration`, waking every sleep that comes due.
  ///
  /// ```swift
  /// await clock.advance(by: .seconds(1))
  /// ```
  ///
  /// See ``advance(to:)``.
  public func advance(by duration: Duration = .zero) async {
    await self.advance(to: self.now.advanced(by: duration))
  }

  /// Moves the clock's time forward to `deadline`, waking every sleep that comes due on the way.
  ///
  /// Sleeps wake one at a time in deadline order (in the order they began, for equal deadlines),
  /// with the clock's time set to each one's deadline; each woken task runs before the next
  /// wakes, so a sleep it begins that comes due by `deadline` is woken by this advance too.
  /// A deadline in the past leaves the time unchanged.
  public func advance(to deadline: Instant) async {
    // A woken task may take a while to be scheduled and sleep again (a timer's next tick): when
    // nothing is due, look a few more times, letting other tasks run, before moving time on.
    var looksLeft = 3
    while true {
      await yieldToOtherTasks()
      let sleeper: Sleeper? = self.lock.withLock {
        guard let sleeper = self.state.removeFirstSleeper(dueBy: deadline) else {
          if looksLeft == 0, self.state.now < deadline { self.state.now = deadline }
          return nil
        }
        if self.state.now < sleeper.deadline { self.state.now = sleeper.deadline }
        return sleeper
      }
      guard let sleeper else {
        if looksLeft == 0 { break }
        looksLeft -= 1
        continue
      }
      looksLeft = 3
      await self.wake(sleeper)
    }
    await yieldToOtherTasks()
  }

  /// Advances the clock until no sleep is left, or reports an issue after `timeout` of real time.
  ///
  /// ```swift
  /// await store.send(.startButtonTapped)
  /// await clock.run()  // every sleep the feature begins, however many, until none is left
  /// ```
  ///
  /// A feature that never stops sleeping (an endless timer) would keep `run` going forever;
  /// after `timeout` it reports *Expected all sleeps to finish, but some are still suspending
  /// after …* and cancels the sleeps that are left.
  public func run(
    timeout: Swift.Duration = .milliseconds(500),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let start = ContinuousClock.now
    await yieldToOtherTasks()
    while let next = self.lock.withLock({ self.state.sleepers.map(\.deadline).min() }) {
      guard start.duration(to: .now) < timeout else {
        let sleepers = self.lock.withLock {
          defer { self.state.sleepers.removeAll() }
          return self.state.sleepers
        }
        reportIssue(
          """
          Expected all sleeps to finish, but some are still suspending after \(timeout).

          There are sleeps suspending. This could mean you are not advancing the test clock far \
          enough for your feature to execute its logic, or there could be a bug in your \
          feature's logic.

          You can also increase the timeout of 'run' to be greater than \(timeout).
          """,
          fileID: fileID,
          filePath: filePath,
          line: line,
          column: column
        )
        for sleeper in sleepers {
          sleeper.continuation.resume(throwing: CancellationError())
        }
        return
      }
      await self.advance(to: next)
    }
  }

  /// Throws if any task is sleeping on the clock, after letting started tasks reach their sleeps.
  ///
  /// ```swift
  /// await store.send(.stopButtonTapped)
  /// try await clock.checkSuspension()  // the timer really stopped
  /// ```
  ///
  /// - Throws: ``SuspensionError`` with the number of sleeps waiting.
  public func checkSuspension() async throws {
    await yieldToOtherTasks()
    let count = self.lock.withLock { self.state.sleepers.count }
    guard count == 0 else { throw SuspensionError(sleepCount: count) }
  }

  /// How many tasks are sleeping on the clock now.
  package var sleeperCount: Int {
    lock.withLock { state.sleepers.count }
  }

  /// Resumes a sleeper and waits until its task runs again.
  private func wake(_ sleeper: Sleeper) async {
    await withUnsafeContinuation { (acknowledgement: UnsafeContinuation<Void, Never>) in
      self.lock.withLock { self.state.wakeAcknowledgements[sleeper.id] = acknowledgement }
      sleeper.continuation.resume()
    }
  }
}

extension TestClock where Duration == Swift.Duration {
  /// Creates a test clock measured in `Duration`, starting at offset zero.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// ```
  public convenience init() {
    self.init(now: .init())
  }
}

extension TestClock: ManuallyAdvancedClock {}
