extension TestStore {
  /// Waits for every running effect to finish, reporting an issue if some are still running
  /// after `timeout` (the store's ``TestStore/timeout`` by default).
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let ledger = reducer.ledger
    guard await waitUntil(timeout: timeout, { ledger.isEmpty }) else {
      report(
        """
        Expected effects to finish, but there are still effects in-flight after \
        \(timeout.secondsDescription) seconds.
        """,
        at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
      )
      return
    }
  }

  /// Clears the actions received but not asserted.
  ///
  /// With `strict`, having nothing to skip is reported.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    for _ in 0..<20 { await Task.yield() }
    // Effects still running may be about to send: wait for one, as long as `receive` would.
    if reducer.received.isEmpty, !reducer.ledger.isEmpty {
      _ = await waitUntil(timeout: timeout) {
        !reducer.received.isEmpty || reducer.ledger.isEmpty
      }
    }
    guard let last = reducer.received.last else {
      if strict {
        report(
          "There were no received actions to skip.",
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        )
      }
      return
    }
    assertedState = last.state
    reducer.received.removeAll()
  }

  /// Cancels every running effect, so the test can end without waiting for them.
  ///
  /// With `strict`, having nothing to cancel is reported.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    for _ in 0..<20 { await Task.yield() }
    if reducer.ledger.isEmpty {
      if strict {
        report(
          "There were no in-flight effects to skip.",
          at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        )
      }
      return
    }
    core.cancelAllEffects()
    reducer.ledger.removeAll()
  }

  /// The end-of-test checks: unasserted received actions and effects still running.
  func completed() {
    defer { core.cancelAllEffects() }
    guard exhaustivity == .on else { return }
    let count = reducer.received.count
    if count > 0 {
      report(
        """
        The store received \(count) unexpected \(count == 1 ? "action" : "actions"). …

        Unhandled actions: \(customDump(reducer.received.map(\.action)))
        """,
        at: reducer.location.line == 0 ? origin : reducer.location
      )
    }
    // An effect that sent its last action may still be returning on another thread: give it a
    // moment, as TCA's message below advises, before calling it still running.
    let grace = ContinuousClock.now.advanced(by: .milliseconds(250))
    while !reducer.ledger.isEmpty, ContinuousClock.now < grace { usleep(1_000) }
    for effect in reducer.ledger.records {
      report(
        """
        An effect returned for this action is still running. It must complete before the end \
        of the test. …

          Action:
            \(effect.action)

        To fix, inspect any effects the reducer returns for this action and ensure that all of \
        them complete by the end of the test. There are a few reasons why an effect may not \
        have completed:

        • If using async/await in your effect, it may need a little bit of time to properly \
        finish. To fix you can simply perform "await store.finish()" at the end of your test.

        • If an effect uses a clock, make sure that you wait enough time for it to perform the \
        effect. If you are using a test clock, advance it so that the effects may complete, or \
        consider using an immediate clock to immediately perform the effect instead.

        • If you are returning a long-living effect (timers, notifications, subjects, etc.), \
        then make sure those effects are torn down by marking the effect ".cancellable" and \
        returning a corresponding cancellation effect ("Effect.cancel") from another action.
        """,
        at: effect.location
      )
    }
  }
}
