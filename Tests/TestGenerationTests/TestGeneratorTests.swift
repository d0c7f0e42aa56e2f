import Counter
import Foundation
import Recorder
import Testing

@Suite("TestGenerator")
struct TestGeneratorTests {
  static let damaged = GeneratedFile.url(
    "Tests/TestGenerationTests/Fixtures/counter-damaged.ndjson"
  ).path
  static let counter = GeneratedFile.url("Traces/counter.ndjson").path

  func generate(
    _ path: String = damaged, _ configure: (inout TestGenerator.Options) -> Void = { _ in }
  ) throws -> GeneratedTest {
    var options = TestGenerator.Options()
    configure(&options)
    return try TestGenerator(options: options).generate(tracePath: path)
  }

  @Test("a step whose action was never encoded ends a test function, and the file says why")
  func notReplayable() throws {
    let test = try generate()
    // Steps 6 and 7 follow the redacted fact of step 5, which a placeholder stands in for.
    #expect(test.skippedSteps.map(\.index) == [3])
    #expect(test.functions.map(\.steps) == [0...2, 4...12])
    #expect(
      test.source.contains(
        "// Step 3 (.decrementButtonTapped) is left out: its action could not be encoded"))
    #expect(test.source.contains("/// The state before step 4, as the trace recorded it"))
    #expect(test.source.contains("    let initialState = try Self.stateBeforeStep4()\n"))
  }

  @Test("an action that no longer decodes is left out, named, when a type check is given")
  func noLongerDecodes() throws {
    let test = try generate {
      $0.typeCheck = .decoding(CounterFeature.State.self, CounterFeature.Action.self)
    }
    #expect(test.skippedSteps.map(\.index) == [2, 3])
    #expect(
      test.skippedSteps.first?.reason.hasPrefix(
        "its action no longer decodes as CounterFeature.Action") == true)
    #expect(!test.source.contains("await store.send(.incrementTapped"))
  }

  @Test("with decoded actions, a case that is gone today still compiles: it is only JSON")
  func decodedActions() throws {
    let source = try generate { $0.decodesActions = true }.source
    #expect(source.contains(##"await store.send(try decoded(#"{"incrementTapped":{}}"#)) {"##))
    #expect(!source.contains("await store.send(."))
    #expect(!source.contains("await store.receive(replaying: ."))
  }

  @Test("a state that no longer decodes is an error naming the step, not a test that cannot pass")
  func stateNoLongerDecodes() throws {
    #expect(throws: TestGenerationError.self) {
      try generate(Self.counter) {
        $0.typeCheck = .init(state: { _ in "no such member" }, action: { _ in nil })
      }
    }
  }

  @Test("a redacted value written from nothing sent is not asserted; exhaustivity is off for that step only")
  func redacted() throws {
    let lines = try generate().source.split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(
      lines.joined(separator: " ").contains(
        "// Step 5 changes /fact, which the trace redacted and nothing the test sends predicts:"))
    let off = try #require(lines.firstIndex(of: "store.exhaustivity = .off"))
    let on = try #require(lines.firstIndex(of: "store.exhaustivity = .on"))
    let between = lines[off..<on].filter { $0.hasPrefix("await") }
    #expect(between.count == 1)
    #expect(between.first?.hasPrefix("await store.receive(replaying: .factResponse(") == true)
    #expect(lines.filter { $0 == "store.exhaustivity = .off" }.count == 1)
    // The file's opening comment names the placeholder; no step writes it.
    #expect(!lines.contains { $0.hasPrefix("await") && $0.contains("<redacted>") })
  }

  @Test("an action the trace has no type information for is decoded from its JSON")
  func untypedAction() throws {
    let source = try generate().source
    #expect(
      source.contains(##"await store.send(try decoded(#"{"toggleTimerButtonTapped":{}}"#)) {"##))
    #expect(
      source.contains("private func decoded<Value: Decodable>(_ json: String) throws -> Value {"))
  }

  @Test("long traces are split; each function starts from the recorded state at its first step")
  func splitting() throws {
    let test = try generate(Self.counter) {
      $0.steps = 0...7
      $0.stepsPerTest = 3
    }
    #expect(test.functions.map(\.name) == ["steps0To2", "steps3To5", "steps6To7"])
    // The state before step 3: the one before step 0, changed.
    #expect(test.source.contains("var state = try stateBeforeStep0()\n    state.count = 3\n"))
    #expect(test.source.contains("    let initialState = try Self.stateBeforeStep3()\n"))
    #expect(test.lines.keys.sorted() == Array(0...7))
  }

  @Test("effect actions are fed in, in recorded order, with the step whose effect sent them")
  func effectOrigins() throws {
    let lines = try generate(Self.counter) { $0.steps = 4...8 }.source
      .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let steps = lines.filter { $0.hasPrefix("// Step") || $0.hasPrefix("await") }
    #expect(
      steps == [
        "await store.send(.factButtonTapped) { $0.isLoading = true }  // Step 4",
        "await store.receive(replaying: .factResponse(\"2 is a prime number.\")) {  // Step 5, effect of 4",
        "await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }  // Step 6",
        // Recorded on a test clock, whose time the trace keeps: the timer runs for real.
        "await clock.advance(by: .seconds(1))",
        "await store.receive(.timerTick) {  // Step 7, effect of 6",
        "await clock.advance(by: .seconds(1))",
        "await store.receive(.timerTick) { $0.count = 4 }  // Step 8, effect of 6",
        "await store.skipInFlightEffects(strict: false)",
      ])
  }

  @Test("steps the trace does not have are a usage error naming the trace as given, and both ranges")
  func stepsOutOfRange() throws {
    #expect {
      try generate(Self.counter) { $0.steps = 200...5_000 }
    } throws: { error in
      let error = error as? TestGenerationError
      return error?.kind == .badOptions
        && error?.message
          == "\(Self.counter): steps 200...5000 are not all in the trace, which has steps 0...242"
    }
  }

  @Test("a missing trace and a malformed one are errors of their own kinds, naming the file")
  func badFiles() throws {
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
      "no-such-trace.ndjson"
    ).path
    #expect { try generate(missing) } throws: {
      ($0 as? TestGenerationError)?.kind == .missingTrace
    }
    let garbage = FileManager.default.temporaryDirectory
      .appendingPathComponent("garbage-\(UUID().uuidString).ndjson").path
    try "not json\n".write(toFile: garbage, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: garbage) }
    #expect { try generate(garbage) } throws: {
      let error = $0 as? TestGenerationError
      return error?.kind == .badTrace && error?.message.hasPrefix("\(garbage):1: ") == true
    }
  }
}

extension TestGeneratorTests {
  /// Writes `lines` to a temporary trace and returns its path.
  func trace(_ lines: [String]) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("trace-\(UUID().uuidString).ndjson").path
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static let header =
    #"{"kind":"header","version":1,"tool":"tca-replay 0.1.0","reducer":"CounterFeature","stateType":"Counter.CounterFeature.State","actionType":"Counter.CounterFeature.Action","fingerprint":{"state":"0","action":"0"},"started":"2026-01-01T00:00:00.000Z","keyframeInterval":0,"#

  @Test("a patch that does not apply is an error naming the step and line, not a wrong test")
  func patchDoesNotApply() throws {
    let path = try trace([
      Self.header + #""initialState":{"count":0,"isLoading":false,"isTimerRunning":false}}"#,
      #"{"kind":"step","index":0,"time":0,"origin":"send","action":{"incrementButtonTapped":{}},"label":".incrementButtonTapped","patch":[{"op":"test","path":"/count","value":5},{"op":"replace","path":"/count","value":6}]}"#,
    ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect { try generate(path) } throws: {
      let error = $0 as? TestGenerationError
      return error?.kind == .badTrace
        && error?.message.hasPrefix("\(path):2: the patch of step 0 does not apply") == true
    }
  }

  @Test("a step whose state holds a redacted value of no known type is disabled, naming the value's path")
  func redactedInitialState() throws {
    let path = try trace([
      Self.header
        + #""redactions":[{"key":"fact"}],"initialState":{"count":0,"fact":"<redacted>","isLoading":false,"isTimerRunning":false}}"#,
      #"{"kind":"step","index":0,"time":0,"origin":"send","action":{"incrementButtonTapped":{}},"label":".incrementButtonTapped","patch":[{"op":"test","path":"/count","value":0},{"op":"replace","path":"/count","value":1}]}"#,
    ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    // The trace gives no types: no placeholder can be made, so the user must supply the value.
    let test = try generate(path)
    #expect(test.functions.map(\.kind) == [.needsValues])
    #expect(test.skippedSteps.isEmpty)
    #expect(
      test.source.contains(
        "// Supply the real values: gen-test can make no placeholder for /fact, whose type the"))
    #expect(test.source.contains(#".disabled("it needs values the trace redacted"#))
  }
}
