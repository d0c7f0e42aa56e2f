import Architecture
import Testing

/// `seconds` after a clock's start.
private func at<Owner>(_ seconds: Double) -> ClockInstant<Owner, Duration> {
  ClockInstant(offset: .seconds(seconds))
}

@Suite("TestClock")
struct TestClockTests {
  @Test("Sleepers wake in deadline order, FIFO among equal deadlines, each at its deadline")
  func deadlineOrder() async {
    let executor = SerialTestExecutor()
    let clock = TestClock()
    let log = EventLog<String>()
    // Registered in this (scrambled) order; "c1" and "c2" share a deadline.
    let sleepers: [(name: String, seconds: Double)] = [
      ("e", 5), ("a", 1), ("c1", 3), ("d", 4), ("b", 2), ("c2", 3),
    ]
    for sleeper in sleepers {
      executor.task {
        try await clock.sleep(until: at(sleeper.seconds))
        log.append("\(sleeper.name)@\(clock.now.offset)")
      }
    }
    await executor.run { await clock.advance(by: .seconds(5)) }
    #expect(
      log.all == [
        "a@1.0 seconds", "b@2.0 seconds", "c1@3.0 seconds", "c2@3.0 seconds", "d@4.0 seconds",
        "e@5.0 seconds",
      ]
    )
    #expect(clock.now.offset == .seconds(5))
  }

  @Test("advance(by:) wakes only the sleeps that come due, and moves time exactly that far")
  func advancePartially() async throws {
    let executor = SerialTestExecutor()
    let clock = TestClock()
    let log = EventLog<Int>()
    for seconds in [3, 1] {
      executor.task {
        try await clock.sleep(for: .seconds(seconds))
        log.append(seconds)
      }
    }
    await executor.run { await clock.advance(by: .seconds(2)) }
    #expect(log.all == [1])
    #expect(clock.now.offset == .seconds(2))
    await #expect(throws: SuspensionError(sleepCount: 1)) {
      try await executor.run { try await clock.checkSuspension() }
    }
    await executor.run { await clock.advance(by: .milliseconds(999)) }
    #expect(log.all == [1])
    await executor.run { await clock.advance(by: .milliseconds(1)) }
    #expect(log.all == [1, 3])
    try await executor.run { try await clock.checkSuspension() }
  }

  @Test("advance(to:) also wakes sleeps that woken tasks begin before the target")
  func chainedSleeps() async {
    let executor = SerialTestExecutor()
    let clock = TestClock()
    let log = EventLog<Duration>()
    executor.task {
      for _ in 1...4 {
        try await clock.sleep(for: .seconds(1))
        log.append(clock.now.offset)
      }
    }
    await executor.run { await clock.advance(to: at(3)) }
    #expect(log.all == [.seconds(1), .seconds(2), .seconds(3)])
    #expect(clock.now.offset == .seconds(3))
  }

  @Test("A sleep until now waits for the next advance; a sleep until the past returns at once")
  func deadlineAtNow() async throws {
    let executor = SerialTestExecutor()
    let clock = TestClock(now: at(10))
    let log = EventLog<String>()
    try await executor.run {
      try await clock.sleep(until: at(5))
      log.append("past")
    }
    executor.task {
      try await clock.sleep(until: at(10))
      log.append("now")
    }
    await #expect(throws: SuspensionError(sleepCount: 1)) {
      try await executor.run { try await clock.checkSuspension() }
    }
    #expect(log.all == ["past"])
    await executor.run { await clock.advance() }
    #expect(log.all == ["past", "now"])
    #expect(clock.now.offset == .seconds(10))
  }

  @Test("run() advances until no sleep is left")
  func runDrains() async throws {
    let executor = SerialTestExecutor()
    let clock = TestClock()
    let log = EventLog<String>()
    executor.task {
      try await clock.sleep(for: .seconds(10))
      log.append("ten")
    }
    executor.task {
      for index in 1...3 {
        try await clock.sleep(for: .seconds(2))
        log.append("two \(index)")
      }
    }
    // The test waits for the sleeps to finish, not for a time: each advance hops to the main
    // actor, which other suites' synchronous tests hold while the whole suite runs, and on a
    // loaded 2-core machine that added up to more than 60 s, then to more than 600 s.
    await executor.run { await clock.run(timeout: .seconds(Int64.max / 4)) }
    #expect(log.all == ["two 1", "two 2", "two 3", "ten"])
    #expect(clock.now.offset == .seconds(10))
    try await executor.run { try await clock.checkSuspension() }
  }

  @Test("run() reports sleeps that never finish, then cancels them")
  func runTimesOut() async {
    let executor = SerialTestExecutor()
    let clock = TestClock()
    let endless = executor.task {
      while true {
        try await clock.sleep(for: .seconds(1))
      }
    }
    let issues = await withIssueCapture {
      await executor.run { await clock.run(timeout: .milliseconds(50)) }
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.message.hasPrefix(
        "Expected all sleeps to finish, but some are still suspending after 0.05 seconds."
      ) == true
    )
    await #expect(throws: CancellationError.self) { try await endless.value }
  }

  @Test("Cancelling a sleeping task throws CancellationError and removes its sleep")
  func cancellation() async throws {
    let executor = SerialTestExecutor()
    let clock = TestClock()
    let sleeping = executor.task { try await clock.sleep(for: .seconds(1)) }
    await #expect(throws: SuspensionError(sleepCount: 1)) {
      try await executor.run { try await clock.checkSuspension() }
    }
    sleeping.cancel()
    await #expect(throws: CancellationError.self) { try await sleeping.value }
    try await executor.run { try await clock.checkSuspension() }
    // Advancing afterwards finds nothing to wake.
    await executor.run { await clock.advance(by: .seconds(2)) }

    let cancelledFirst = executor.task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
    try await executor.run { try await clock.checkSuspension() }
  }

  @Test("A timer ticks exactly once per interval advanced, and ends when cancelled")
  func timer() async throws {
    let executor = SerialTestExecutor()
    let testClock = TestClock()
    // As TCA's tutorial stores it: `@Dependency(\.continuousClock) var clock`.
    let clock: any Clock<Duration> = testClock
    let ticks = EventLog<Duration>()
    let timer = executor.task {
      for await instant in clock.timer(interval: .seconds(1)) {
        ticks.append(instant.offset)
      }
    }
    await executor.run { await testClock.advance(by: .seconds(3)) }
    #expect(ticks.all == [.seconds(1), .seconds(2), .seconds(3)])
    await executor.run { await testClock.advance(by: .milliseconds(500)) }
    #expect(ticks.all.count == 3)
    await executor.run { await testClock.advance(by: .milliseconds(500)) }
    #expect(ticks.all.count == 4)

    timer.cancel()
    try await timer.value
    try await executor.run { try await testClock.checkSuspension() }
    await executor.run { await testClock.advance(by: .seconds(5)) }
    #expect(ticks.all.count == 4)
  }
}

@Suite("ImmediateClock, UnimplementedClock and AnyClock")
struct OtherClockTests {
  @Test("ImmediateClock's sleeps return at once and move now forward")
  func immediate() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(5))
    #expect(clock.now.offset == .seconds(5))
    try await clock.sleep(until: at(2))
    #expect(clock.now.offset == .seconds(5))
    let copy = clock
    try await copy.sleep(for: .seconds(1))
    #expect(clock.now.offset == .seconds(6))

    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await ImmediateClock.immediate.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await cancelled.value }
  }

  @Test("An ImmediateClock timer ticks without waiting, also on the main actor")
  @MainActor
  func immediateTimer() async {
    let clock: any Clock<Duration> = ImmediateClock()
    var ticks: [Duration] = []
    for await instant in clock.timer(interval: .seconds(2)) {
      ticks.append(instant.offset)
      if ticks.count == 3 { break }
    }
    #expect(ticks == [.seconds(2), .seconds(4), .seconds(6)])
  }

  @Test("UnimplementedClock reports 'Unimplemented: <name>.sleep', then returns and moves now")
  func unimplemented() async throws {
    let clock = UnimplementedClock(name: "ContinuousClock")
    let issues = try await withIssueCapture {
      try await clock.sleep(for: .seconds(1))
    }
    #expect(issues.map(\.message) == ["Unimplemented: ContinuousClock.sleep"])
    #expect(issues.first?.fileID.hasSuffix("ClockTests.swift") == true)
    #expect(clock.now.offset == .seconds(1))

    let nowIssues = withIssueCapture { _ = clock.now }
    #expect(nowIssues.isEmpty)

    let unnamed: any Clock<Duration> = UnimplementedClock()
    let unnamedIssues = try await withIssueCapture { try await unnamed.sleep(for: .seconds(1)) }
    #expect(unnamedIssues.map(\.message) == ["Unimplemented: Clock.sleep"])

    let named: UnimplementedClock<Duration> = .unimplemented("SuspendingClock")
    let namedIssues = try await withIssueCapture { try await named.sleep(for: .seconds(1)) }
    #expect(namedIssues.map(\.message) == ["Unimplemented: SuspendingClock.sleep"])
  }

  @Test("AnyClock sleeps on the clock it wraps and reads its time")
  func anyClock() async throws {
    let executor = SerialTestExecutor()
    let testClock = TestClock(now: at(100))
    let existential: any Clock<Duration> = testClock
    let clock = AnyClock(existential)
    #expect(clock.now.offset == .zero)
    let log = EventLog<Duration>()
    executor.task {
      try await clock.sleep(for: .seconds(2))
      log.append(clock.now.offset)
    }
    await executor.run { await testClock.advance(by: .seconds(1)) }
    #expect(log.all.isEmpty)
    await executor.run { await testClock.advance(by: .seconds(1)) }
    #expect(log.all == [.seconds(2)])
    #expect(testClock.now.offset == .seconds(102))
    #expect(clock.minimumResolution == .zero)
  }
}
