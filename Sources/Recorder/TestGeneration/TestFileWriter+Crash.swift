import TraceJSON

extension TestFileWriter {
  /// Writes the test of the step a trace's crash record names: the step that crashed the
  /// reducer when recorded, sent again from the state recorded before it.
  ///
  /// The trace has no state after that step, so the test checks only that it no longer
  /// crashes (exhaustivity off, effects not run): it fails until the crash is fixed, then
  /// passes. A crash kills the process it happens in, so Swift Testing sends the step in a
  /// child process (`#expect(processExitsWith: .success)`): the test fails and the others run
  /// on. XCTest has no such thing: there, while the bug is there, the test ends the test
  /// process, as any test of a crash does; so does a plain function.
  mutating func writeCrash(_ crash: TraceCrash, from recordedState: JSONValue) {
    if !body.isEmpty { body.append("") }
    // The signal is left out: it differs by machine (a trap is SIGILL on x86-64, SIGTRAP on
    // arm64), and `tca-replay log` shows it.
    guard let index = crash.step else {
      body += Self.comment(
        "The recording crashed outside any reducer, in an effect or on another thread: there "
          + "is no step to send again.",
        indent: 1)
      return
    }
    let label = crash.label ?? "step \(index)"
    guard let recorded = crash.action else {
      skipped.append(.init(index: index, reason: "its action was not recorded"))
      body += Self.comment(
        "Step \(index) (\(label)) crashed the reducer when recorded, but its action was not "
          + "recorded: it cannot be sent again.",
        indent: 1)
      return
    }
    let name = "crashAtStep\(index)"
    let sendName = "sendStep\(index)"
    let about =
      "Step \(index) (\(label)) crashed the reducer when recorded, and the trace has no state "
      + "after it: this test checks only that it no longer crashes."
    switch options.framework {
    case .swiftTesting:
      body.append("  @Test(\"step \(index), which crashed the reducer when recorded\")")
      body.append("  func \(name)() async {")
      body += Self.comment(
        about + " It sends the step in a child process, so that while the step still crashes "
          + "this test fails and the others run on.",
        indent: 2)
      let failure = SwiftValue.stringLiteral(
        "step \(index) (\(label)) still crashes the reducer")
      body.append("    await #expect(processExitsWith: .success, \(failure)) {")
      body.append("      try await \(typeName).\(sendName)()")
      body.append("    }")
      body.append("  }")
      body.append("")
      body.append("  /// Sends step \(index) from the state recorded before it.")
      body.append("  static func \(sendName)() async throws {")
      functions.append(.init(name: name, steps: index...index, kind: .crash))
    case .xctest:
      let method = "test" + name.prefix(1).uppercased() + name.dropFirst()
      body.append("  @MainActor")
      body.append("  func \(method)() async throws {")
      body += Self.comment(
        about + " XCTest cannot survive a crash: while the step still crashes, this test ends "
          + "the test process, and the tests after it do not run (`gen-test --framework "
          + "swift-testing` sends it in a child process instead).",
        indent: 2)
      functions.append(.init(name: method, steps: index...index, kind: .crash))
    case .plain:
      body.append("  func \(name)() async throws {")
      body += Self.comment(
        about + " While the step still crashes, calling this ends the process.", indent: 2)
      functions.append(.init(name: name, steps: index...index, kind: .crash))
    }
    let filled = placeholders.fill(recordedState, type: header.stateType)
    body.append("    // The state before step \(index), as the trace recorded it.")
    body += placeholderComment(filled.sites, in: "it")
    declareInitialState(filled.value)
    body.append("    let store = TestStore(initialState: initialState) {")
    body += reducerLines
    body.append("    }")
    body.append("    store.runsEffects = false")
    body.append("    store.exhaustivity = .off")
    body.append("")
    body.append("    // Step \(index): crashed the reducer when recorded")
    let sent = placeholders.fill(recorded, type: header.actionType)
    body += placeholderComment(sent.sites, in: "its action")
    let action =
      options.decodesActions
      ? renderer.fallback(sent.value, 0)
      : renderer.expression(sent.value, type: header.actionType)
    stepLines[index] = body.count + 1 + preambleLineCount
    append("await store.send(\(action))", indent: 2)
    body.append("  }")
  }
}
