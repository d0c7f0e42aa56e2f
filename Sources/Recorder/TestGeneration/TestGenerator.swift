import TraceJSON

/// Writes a trace as a `TestStore` regression test that reads like a hand-written one.
///
/// ```swift
/// var options = TestGenerator.Options()
/// options.framework = .xctest
/// let test = try TestGenerator(options: options).generate(tracePath: "Traces/counter.ndjson")
/// print(test.source)
/// ```
///
/// Each test function starts from the state the trace recorded before its first step, sends
/// the recorded actions, and asserts each recorded state change as the mutations its patch
/// implies (`$0.count = 1`). Effects that read only a clock run on a `TestClock` advanced as the
/// recording's clock moved, and what they send is received (see ``EffectPlan`` for the rule);
/// what other effects sent is fed in with `receive(replaying:)`. The `uuid`, `date` and random
/// values the reducer read are supplied through `withDependencies`. Long traces are split
/// into functions of at most ``Options/stepsPerTest`` steps, ending where a screen closes with
/// no effect running when there is such a place, so a failure points to a small window; a step
/// that cannot be replayed ends a function, with a comment saying why.
package struct TestGenerator: Sendable {
  /// The test framework the file is written for.
  package enum Framework: String, Sendable, CaseIterable {
    /// Swift Testing: a `@Suite` struct of `@Test` functions.
    case swiftTesting = "swift-testing"
    /// XCTest: an `XCTestCase` subclass of `test…` methods.
    case xctest
    /// No framework: a struct of plain async functions, for code that runs them itself (the
    /// project's mutation check calls them and captures the failures they report).
    case plain
  }

  /// What to generate.
  package struct Options: Sendable {
    /// The test framework; Swift Testing by default.
    package var framework: Framework = .swiftTesting
    /// The name of the suite or test case type; by default from the trace's file name,
    /// `counter.ndjson` giving `CounterTraceTests`.
    package var typeName: String?
    /// The reducer the tests run, as the test writes it; by default the one that recorded.
    package var reducer: String?
    /// Modules to import besides those the trace's types come from.
    package var modules: [String] = []
    /// The steps to replay, by index; all of them by default.
    package var steps: ClosedRange<Int>?
    /// The most steps one test function replays.
    package var stepsPerTest = 100
    /// Checks recorded states and actions against today's types; none by default.
    package var typeCheck: TypeCheck?
    /// Writes every action as its recorded JSON, decoded, rather than as a Swift expression.
    ///
    /// For a trace from an older build when no ``typeCheck`` is at hand: the file compiles
    /// whatever became of the action's cases, and the first action that no longer decodes fails
    /// its test with a `DecodingError` naming it.
    package var decodesActions = false
    /// Runs the reducer on steps that hold a redacted value, to tell those that read it (the
    /// test says what the user must supply) from those that do not (a placeholder stands in);
    /// none by default, when every redacted value gets a placeholder, and the file says that
    /// it was not checked.
    package var redactionCheck: RedactionCheck?

    /// Creates options with the defaults.
    package init() {}
  }

  /// What to generate.
  package var options: Options

  /// Creates a generator with `options`.
  package init(options: Options = Options()) {
    self.options = options
  }

  /// Reads the trace at `tracePath` and writes its test.
  ///
  /// - Throws: ``TestGenerationError`` when the trace is missing or malformed, or the options
  ///   ask for steps it does not have.
  package func generate(tracePath: String) throws(TestGenerationError) -> GeneratedTest {
    var records: [TraceRecord] = []
    // The line of each record, for the names check, and of each step, for later errors.
    var lines: [Int] = []
    var stepLines: [Int: Int] = [:]
    var warning: String?
    do {
      // Checked as every command checks a trace: the same first problem, by file and line.
      let reader = try CheckedTraceReader(path: tracePath)
      while let record = try reader.next() {
        if case .step(let step) = record { stepLines[step.index] = reader.line }
        records.append(record)
        lines.append(reader.line)
      }
      warning = reader.warning
    } catch {
      let error = error.firstInTrace()
      throw TestGenerationError(
        error.kind == .missing ? .missingTrace : .badTrace, error.description
      )
    }
    let name = tracePath.split(separator: "/").last.map(String.init) ?? tracePath
    do {
      var test = try generate(
        records: records, lines: lines, stepLines: stepLines, traceName: name)
      test.warning = warning
      return test
    } catch {
      // Comments cite the file by name; errors name it as the caller gave it.
      var error = error
      if error.message.hasPrefix(name + ":") {
        error.message = tracePath + error.message.dropFirst(name.count)
      }
      throw error
    }
  }

  /// Writes the test for a trace's records; `traceName` (a file name) is what comments cite.
  ///
  /// Errors count the records as the lines of the file, from 1.
  package func generate(
    records: [TraceRecord], traceName: String
  ) throws(TestGenerationError) -> GeneratedTest {
    try generate(
      records: records, lines: Array(1...max(records.count, 1)), stepLines: [:],
      traceName: traceName)
  }

  /// Writes the test for `records`, read from the lines `lines` of the file `traceName`;
  /// `stepLines` gives each step's line, for errors.
  func generate(
    records: [TraceRecord], lines: [Int], stepLines: [Int: Int], traceName: String
  ) throws(TestGenerationError) -> GeneratedTest {
    try checkOptionNames()
    // Names are pasted into the source as code: a record with one that is not a name is refused
    // before anything is written.
    for (record, line) in zip(records, lines) {
      try checkNames(in: record, line: line, traceName: traceName)
    }
    guard case .header(let header)? = records.first else {
      throw TestGenerationError(.badTrace, "\(traceName): the trace has no header")
    }
    /// `counter.ndjson:12:`, or `counter.ndjson:` when the step's line is not known.
    func location(_ step: TraceStep) -> String {
      traceName + (stepLines[step.index].map { ":\($0)" } ?? "") + ":"
    }
    var schema = TypeSchema()
    schema.merge(header.types)
    var steps: [TraceStep] = []
    for case .step(let step) in records {
      // Records not read from a file are not checked: a range of steps needs them in order.
      let expected = header.firstStep + steps.count
      guard step.index == expected else {
        throw TestGenerationError(
          .badTrace, "\(location(step)) \(stepIndexProblem(step.index, expected))")
      }
      schema.merge(step.types)
      steps.append(step)
    }
    // The crash the trace ends in, whose step never finished: a test sends it again.
    var crash: TraceCrash?
    for case .crash(let record) in records { crash = record }
    guard options.stepsPerTest > 0 else {
      throw TestGenerationError(.badOptions, "steps per test must be at least 1")
    }
    let effects = EffectPlan(records: records)
    var writer = TestFileWriter(
      options: options, header: header, schema: schema, traceName: traceName,
      effects: effects,
      hasEffects: steps.contains { $0.origin != .send || !$0.effects.isEmpty }
    )
    guard let first = steps.first, let last = steps.last else {
      // A crash at the first step: the test sends it from the initial state.
      guard let crash, crash.step != nil, options.steps == nil else {
        throw TestGenerationError(.badOptions, "\(traceName): the trace has no steps to replay")
      }
      writer.writeCrash(crash, from: header.initialState)
      return writer.finish()
    }
    let range = options.steps ?? first.index...last.index
    guard range.lowerBound >= first.index, range.upperBound <= last.index else {
      throw TestGenerationError(
        .badOptions,
        "\(traceName): steps \(range.lowerBound)...\(range.upperBound) are not all in the "
          + "trace, which has steps \(first.index)...\(last.index)"
      )
    }
    let placeholders = RedactionPlaceholders(schema: schema)
    var state = header.initialState
    // The steps of the function being written, and why they need values supplied, if they do:
    // a function either runs or waits for values, never both.
    var window: [TraceStep] = []
    var windowNeeds: [String] = []
    var windowState = state
    func flush() throws(TestGenerationError) {
      if !window.isEmpty { try writer.writeFunction(window, from: windowState, needs: windowNeeds) }
      window = []
      windowNeeds = []
    }
    for step in steps where step.index <= range.upperBound {
      guard step.index >= range.lowerBound else {
        state = try apply(step, to: state, at: location(step))
        continue
      }
      let after = try apply(step, to: state, at: location(step))
      if let reason = reasonNotReplayable(step, placeholders: placeholders, header: header) {
        try flush()
        writer.writeSkipped(step, reason: reason)
      } else {
        let need = valuesNeeded(
          step, before: state, after: after, header: header, placeholders: placeholders)
        if !window.isEmpty, (need == nil) != windowNeeds.isEmpty { try flush() }
        if window.isEmpty {
          windowState = state
          let filled = placeholders.fill(state, type: header.stateType)
          if need == nil, let problem = options.typeCheck?.state(filled.value) {
            throw TestGenerationError(
              .badTrace,
              "\(location(step)) the state before step \(step.index) does not decode as "
                + "\(header.stateType) today: \(problem)"
            )
          }
        }
        window.append(step)
        if let need { windowNeeds.append(need) }
        if window.count == options.stepsPerTest
          || Self.isNaturalEnd(
            of: window, before: state, after: after, header: header, schema: schema,
            effects: effects)
        {
          try flush()
        }
      }
      state = after
    }
    try flush()
    // The crash follows the last step: it is written when the range reaches it.
    if let crash, range.upperBound == last.index { writer.writeCrash(crash, from: state) }
    return writer.finish()
  }

  /// Why `step`, reduced from `before`, needs values the user must supply: it reads a value the
  /// trace redacted, or one of them has a type gen-test can make no placeholder of; `nil` when
  /// placeholders can stand in (or the step holds no redacted value).
  func valuesNeeded(
    _ step: TraceStep, before: JSONValue, after: JSONValue, header: TraceHeader,
    placeholders: RedactionPlaceholders
  ) -> String? {
    let action = step.action ?? .null
    guard before.containsRedaction || action.containsRedaction else { return nil }
    let sites =
      placeholders.fill(before, type: header.stateType).sites
      + placeholders.fill(action, type: header.actionType).sites
    if let site = sites.first(where: { $0.placeholder == nil }) {
      return "gen-test can make no placeholder for \(site.path)"
        + (site.type.map { " (\($0))" } ?? ", whose type the trace does not give")
    }
    guard let check = options.redactionCheck,
      check.reads(step, before: before, after: after, header: header, placeholders: placeholders)
    else { return nil }
    return "step \(step.index) reads what the trace redacted (its result depends on it)"
  }

  private func apply(
    _ step: TraceStep, to state: JSONValue, at location: String
  ) throws(TestGenerationError) -> JSONValue {
    do {
      return try step.patch.apply(to: state)
    } catch {
      // Worded as the trace readers word it, so every command reports it alike.
      throw TestGenerationError(
        .badTrace, "\(location) the patch of step \(step.index) does not apply: \(error)"
      )
    }
  }

  /// Why `step` cannot be sent again, or `nil` when it can.
  ///
  /// A step that holds a redacted value can: ``valuesNeeded(_:before:after:header:placeholders:)``
  /// says whether a placeholder can stand in for it.
  func reasonNotReplayable(
    _ step: TraceStep, placeholders: RedactionPlaceholders, header: TraceHeader
  ) -> String? {
    guard let action = step.action else {
      return "its action could not be encoded when it was recorded"
    }
    // Checked as it is sent: with placeholders for what was redacted.
    let sent = placeholders.fill(action, type: header.actionType).value
    if !sent.containsRedaction, let problem = options.typeCheck?.action(sent) {
      return "its action no longer decodes as \(TypeName.displayName(header.actionType)) "
        + "(\(problem))"
    }
    return nil
  }
}
