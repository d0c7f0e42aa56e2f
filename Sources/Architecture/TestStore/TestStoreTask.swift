import Synchronization

/// The effects started by a ``TestStore/send(_:assert:fileID:file:line:column:)``.
///
/// ```swift
/// let task = await store.send(.task)
/// await task.cancel()
/// ```
public struct TestStoreTask: Hashable, Sendable {
  let rawValue: Task<Void, Never>?
  let timeout: Duration
  private let probe: FinishProbe

  init(
    rawValue: Task<Void, Never>?, timeout: Duration, ledger: EffectLedger? = nil,
    sentStep: Int = -1
  ) {
    self.rawValue = rawValue
    self.timeout = timeout
    self.probe = FinishProbe(ledger: ledger, sentStep: sentStep)
    if let rawValue {
      Task { [probe] in
        await rawValue.value
        probe.markFinished()
      }
    } else {
      probe.markFinished()
    }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  /// Cancels the effects and waits for them to wind down.
  public func cancel() async {
    rawValue?.cancel()
    await rawValue?.value
  }

  /// Waits for the effects to finish, and those of the actions they sent back, as TCA's does;
  /// reports an issue if some are still running after `timeout` (the store's by default).
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let finished = await waitUntil(timeout: timeout) { probe.isFinishedWithDescendants }
    if !finished {
      reportIssue(
        """
        Expected task to finish, but it is still in-flight after \(timeout.secondsDescription) \
        seconds.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  }

  /// Whether the effects were cancelled; `true` when there were none.
  public var isCancelled: Bool { rawValue?.isCancelled ?? true }
}

/// Whether a task finished, readable without waiting for it.
final class FinishProbe: Sendable {
  private let finished = Atomic<Bool>(false)
  /// The test store's running effects, and the step of the send whose descendants to wait for.
  private let ledger: EffectLedger?
  private let sentStep: Int

  init(ledger: EffectLedger? = nil, sentStep: Int = -1) {
    self.ledger = ledger
    self.sentStep = sentStep
  }

  var isFinished: Bool { finished.load(ordering: .acquiring) }
  func markFinished() { finished.store(true, ordering: .releasing) }

  /// Whether the task finished, and the effects of the actions its effects sent back too.
  var isFinishedWithDescendants: Bool {
    isFinished && ledger?.isRunning(from: sentStep) != true
  }
}

/// Polls `condition`, yielding between polls, until it holds or `timeout` of real time passes.
@MainActor
func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while !condition() {
    if clock.now >= deadline { return false }
    for _ in 0..<10 { await Task.yield() }
    if !condition() { try? await Task.sleep(for: .microseconds(200)) }
  }
  return true
}

extension Duration {
  /// The duration in seconds, as TCA's messages print it: "1.0", "0.1".
  var secondsDescription: String {
    let (seconds, attoseconds) = components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return "\((value * 1000).rounded() / 1000)"
  }
}
