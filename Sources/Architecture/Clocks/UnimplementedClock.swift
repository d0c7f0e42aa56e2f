/// A clock that reports an issue when a test sleeps on it: the test value of a clock dependency.
///
/// A test that does not expect its feature to sleep gets this clock; if the feature sleeps after
/// all, the test fails with *Unimplemented: ContinuousClock.sleep* (for a clock named
/// `ContinuousClock`), and the sleep returns at once so the feature carries on:
///
/// ```swift
/// let clock = UnimplementedClock(name: "ContinuousClock")
/// try await clock.sleep(for: .seconds(1))  // reports "Unimplemented: ContinuousClock.sleep"
/// ```
///
/// Reading `now` is allowed and does not report. The issue is attributed to where the clock was
/// created.
public struct UnimplementedClock<Duration: DurationProtocol & Hashable>: Clock, Sendable {
  /// An instant of an unimplemented clock: its offset from the clock's start.
  public typealias Instant = ClockInstant<UnimplementedClock, Duration>

  /// The clock's name in the issue it reports: `Unimplemented: <name>.sleep`.
  public let name: String
  private let time: ClockTime<Instant>
  private let fileID: StaticString
  private let filePath: StaticString
  private let line: UInt
  private let column: UInt

  /// Creates an unimplemented clock whose time starts at `now`.
  ///
  /// - Parameters:
  ///   - name: The name in the issue a sleep reports, such as `"ContinuousClock"`.
  ///   - now: The clock's time before any sleep.
  public init(
    name: String = "Clock",
    now: Instant = .init(),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.name = name
    self.time = ClockTime(now)
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// The clock's current time: its start plus the sleeps so far.
  public var now: Instant {
    self.time.current
  }

  /// The smallest step the clock measures: `.zero`.
  public var minimumResolution: Duration {
    .zero
  }

  /// Reports *Unimplemented: <name>.sleep*, then returns at once, moving the time to `deadline`.
  ///
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    reportIssue(
      "Unimplemented: \(self.name).sleep",
      fileID: self.fileID,
      filePath: self.filePath,
      line: self.line,
      column: self.column
    )
    try Task.checkCancellation()
    self.time.advance(to: deadline)
  }
}

extension UnimplementedClock where Duration == Swift.Duration {
  /// Creates an unimplemented clock measured in `Duration`.
  ///
  /// ```swift
  /// static let testValue: any Clock<Duration> = UnimplementedClock(name: "ContinuousClock")
  /// ```
  public init(
    name: String = "Clock",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      name: name, now: .init(), fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
}

extension Clock where Self == UnimplementedClock<Swift.Duration> {
  /// An unimplemented clock named `Clock`, as in `$0.continuousClock = .unimplemented`.
  public static var unimplemented: Self {
    UnimplementedClock()
  }

  /// An unimplemented clock with the given name.
  ///
  /// ```swift
  /// $0.continuousClock = .unimplemented("ContinuousClock")
  /// ```
  public static func unimplemented(
    _ name: String = "Clock",
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    UnimplementedClock(name: name, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
