/// Assembles a generated test file, function by function, keeping the line of every step.
struct TestFileWriter {
  let options: TestGenerator.Options
  let header: TraceHeader
  let schema: TypeSchema
  let traceName: String
  let effects: EffectPlan
  private var renderer: SwiftRenderer
  private var body: [String] = []
  private var functions: [GeneratedTest.Function] = []
  private var stepLines: [Int: Int] = [:]
  private var skipped: [GeneratedTest.SkippedStep] = []

  init(
    options: TestGenerator.Options, header: TraceHeader, schema: TypeSchema, traceName: String,
    effects: EffectPlan
  ) {
    self.effects = effects
    self.options = options
    self.header = header
    self.schema = schema
    self.traceName = traceName
    renderer = SwiftRenderer(schema: schema)
    preamble = makePreamble()
  }

  private var typeName: String {
    if let name = options.typeName { return name }
    let base = traceName.split(separator: ".").first.map(String.init) ?? "Recorded"
    let words = base.split { !$0.isLetter && !$0.isNumber }
    let camel = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    let name = (camel.first?.isLetter == true ? camel : "Recorded" + camel) + "TraceTests"
    // The file name is anyone's; only an identifier may name the type.
    return SwiftRenderer.isIdentifier(name) ? name : "RecordedTraceTests"
  }

  private var reducer: String {
    options.reducer ?? SwiftRenderer.displayName(header.reducer)
  }

  // MARK: Functions

  /// Writes one test function replaying `steps`, starting from `state`.
  mutating func writeFunction(_ steps: [TraceStep], from state: JSONValue)
    throws(TestGenerationError)
  {
    guard let first = steps.first?.index, let last = steps.last?.index else { return }
    let name = "steps\(first)To\(last)"
    if !body.isEmpty { body.append("") }
    switch options.framework {
    case .swiftTesting:
      body.append("  @Test(\"steps \(first) to \(last)\")")
      body.append("  func \(name)() async throws {")
      functions.append(.init(name: name, steps: first...last))
    case .xctest:
      body.append("  @MainActor")
      body.append("  func test\(name.prefix(1).uppercased() + name.dropFirst())() async throws {")
      functions.append(
        .init(name: "test" + name.prefix(1).uppercased() + name.dropFirst(), steps: first...last))
    case .plain:
      body.append("  func \(name)() async throws {")
      functions.append(.init(name: name, steps: first...last))
    }

    let stateType = SwiftRenderer.displayName(header.stateType)
    body.append("    // The state before step \(first), as the trace recorded it.")
    let declaration = "let initialState: \(stateType) = "
    let initial = renderer.expression(
      state, type: header.stateType, inlineLimit: 100 - 4 - declaration.count - 20
    )
    append(declaration + initial, indent: 2)
    let schedule = EffectSchedule(steps: steps, plan: effects)
    if schedule.runsEffects { body.append("    let clock = TestClock()") }
    body.append("    let store = TestStore(initialState: initialState) {")
    body.append("      \(reducer)()")
    let dependencies =
      schedule.clocks.sorted().map { "$0.\($0) = clock" } + dependencyLines(steps)
    if dependencies.isEmpty {
      body.append("    }")
    } else {
      body.append("    } withDependencies: {")
      for line in dependencies { append(line, indent: 3) }
      body.append("    }")
    }
    if schedule.runsEffects {
      body += Self.comment(
        "Effects that read only the clock run, on a test clock advanced as the recording's "
          + "moved; what other effects sent is fed in as the trace recorded it.",
        indent: 2)
    } else {
      body.append("    // Effects do not run: what they sent is fed in as the trace recorded it.")
      body.append("    store.runsEffects = false")
    }

    var current = state
    var assertions: [(TraceStep, StateAssertionWriter.Assertion)] = []
    let writer = StateAssertionWriter(schema: schema, stateType: header.stateType)
    for step in steps {
      do {
        assertions.append(
          (step, try writer.assertion(for: step.patch, state: &current, renderer: &renderer)))
      } catch {
        throw TestGenerationError(
          .badTrace, "\(traceName): step \(step.index)'s patch does not apply: \(error)"
        )
      }
    }
    let redacted = state.redactedPaths() + assertions.flatMap(\.1.redactedPaths)
    if !redacted.isEmpty {
      body += Self.comment(
        "The trace redacted \(Self.list(Array(Set(redacted)).sorted())): those values are "
          + "unknown, so the test checks only the changes it states.",
        indent: 2
      )
      body.append("    store.exhaustivity = .off")
    }

    for (step, assertion) in assertions {
      body.append("")
      body.append("    // Step \(step.index): \(Self.origin(of: step))")
      for path in assertion.redactedPaths {
        body += Self.comment(
          "\(path) changed to a redacted value, which is not asserted.", indent: 2)
      }
      let action =
        options.decodesActions
        ? renderer.fallback(step.action ?? .null, 0)
        : renderer.expression(step.action ?? .null, type: header.actionType)
      if let reason = schedule.fedReasons[step.index] {
        body += Self.comment("Fed in: \(reason).", indent: 2)
      }
      if let setting = schedule.settings[step.index] {
        body.append("    store.runsEffects = \(setting)")
      }
      if let milliseconds = schedule.advances[step.index] {
        body.append("    " + EffectSchedule.advance(milliseconds))
      }
      for sent in schedule.finishesBefore[step.index] ?? [] {
        body.append("    // The effects of step \(sent) had ended by now when recording.")
        body.append("    await step\(sent).finish()")
      }
      let call: String
      switch step.origin {
      case .send where schedule.bound.contains(step.index):
        call = "let step\(step.index) = await store.send(\(action))"
      case .send: call = "await store.send(\(action))"
      case .effect where schedule.fedReasons[step.index] == nil:
        call = "await store.receive(\(action))"
      case .effect: call = "await store.receive(replaying: \(action))"
      }
      stepLines[step.index] = body.count + 1 + preambleLineCount
      if assertion.statements.isEmpty {
        append(call, indent: 2)
      } else {
        append(call + " {", indent: 2)
        for statement in assertion.statements { append(statement, indent: 3) }
        body.append("    }")
      }
      for sent in schedule.finishesAfter[step.index] ?? [] {
        let what = sent == step.index ? "They" : "The effects of step \(sent)"
        body.append("    // \(what) had ended by here when recording.")
        body.append("    await step\(sent).finish()")
      }
    }
    if !schedule.runningAtEnd.isEmpty {
      body.append("")
      body += Self.comment(
        "The recording was still running the effects of "
          + "\(Self.list(schedule.runningAtEnd.map { "step \($0)" })) here.",
        indent: 2)
      body.append("    await store.skipInFlightEffects(strict: false)")
    }
    body.append("  }")
  }

  /// Notes in the file that `step` is left out, and why; a run of steps left out for the same
  /// reason shares one comment.
  mutating func writeSkipped(_ step: TraceStep, reason: String) {
    skipped.append(.init(index: step.index, reason: reason))
    if let run = skipRun, run.reason == reason, run.last + 1 == step.index,
      body.count == run.end
    {
      body.removeSubrange(run.start...)
      body += Self.comment(
        "Steps \(run.first) to \(step.index) are left out: for each, \(reason), so it cannot "
          + "be sent again. The next test starts from the state recorded after step "
          + "\(step.index).",
        indent: 1
      )
      skipRun = (run.first, step.index, reason, run.start, body.count)
      return
    }
    if !body.isEmpty { body.append("") }
    let start = body.count
    body += Self.comment(
      "Step \(step.index) (\(step.label)) is left out: \(reason), so it cannot be sent again. "
        + "The next test starts from the state recorded after it.",
      indent: 1
    )
    skipRun = (step.index, step.index, reason, start, body.count)
  }

  /// The last comment on steps left out: which, why, and where it lies in `body`.
  private var skipRun: (first: Int, last: Int, reason: String, start: Int, end: Int)?

  /// The `withDependencies` lines that hand out the values the steps' reducer read.
  private mutating func dependencyLines(_ steps: [TraceStep]) -> [String] {
    var uuids: [String] = []
    var dates: [Double] = []
    var randoms: [UInt64] = []
    var stackElementIDs: [Int] = []
    for value in steps.flatMap(\.dependencies) {
      switch value {
      case .uuid(let uuid): uuids.append(uuid)
      case .date(let date): dates.append(date)
      case .random(let number): randoms.append(number)
      case .stackElementID(let id): stackElementIDs.append(id)
      }
    }
    var lines: [String] = []
    // Sequences, never `.incrementing` or `.constant`: a reducer that reads one value more
    // than the recording did fails the step that asks for it.
    if !uuids.isEmpty {
      let expressions = uuids.map { renderer.expression(.string($0), type: "Foundation.UUID") }
      lines.append("$0.uuid = .sequence(\(Self.list(expressions, indent: 0)))")
    }
    if !dates.isEmpty {
      let expressions = dates.map {
        "Date(timeIntervalSinceReferenceDate: \(SwiftRenderer.number($0)))"
      }
      lines.append("$0.date = .sequence(\(Self.list(expressions, indent: 0)))")
    }
    if !randoms.isEmpty {
      lines.append(
        "$0.withRandomNumberGenerator = WithRandomNumberGenerator("
          + "SequenceRandomNumberGenerator(\(Self.list(randoms.map(String.init), indent: 0))))"
      )
    }
    // A test store counts stack element ids up from 0; a trace that starts later says where.
    if let first = stackElementIDs.first, first != 0 {
      lines.append("$0.stackElementID = .incrementing(from: \(first))")
    }
    return lines
  }

  /// Appends `code`, which may span lines, at `indent` levels of two spaces.
  private mutating func append(_ code: String, indent: Int) {
    let pad = String(repeating: "  ", count: indent)
    for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
      body.append(line.isEmpty ? "" : pad + line)
    }
  }

  // MARK: The file

  /// The import lines: the library's modules, and the trace's own with `@testable`, since an
  /// app's features are usually internal (a debug build, as `swift test` makes, allows it, and
  /// it changes nothing for public types).
  private var imports: [String] {
    var modules = Set(options.modules)
    for type in [header.stateType, header.actionType] + schema.types.keys {
      if let module = SwiftRenderer.module(of: type) { modules.insert(module) }
    }
    modules.subtract([
      "Swift", "Foundation", "FoundationEssentials", "Architecture", "Testing", "XCTest",
    ])
    var imports = [(module: "Architecture", line: "import Architecture")]
    imports.append(("Foundation", "import Foundation"))
    imports += modules.map { ($0, "@testable import \($0)") }
    switch options.framework {
    case .swiftTesting: imports.append(("Testing", "import Testing"))
    case .xctest: imports.append(("XCTest", "import XCTest"))
    case .plain: break
    }
    return imports.sorted { $0.module < $1.module }.map(\.line)
  }

  /// The comment, imports and type declaration that open the file.
  private func makePreamble() -> [String] {
    var lines = Self.comment(
      "Generated by `tca-replay gen-test` from \(traceName); regenerate it rather than edit it.",
      indent: 0
    )
    lines.append("//")
    lines += Self.comment(
      "Each test starts from the state the trace recorded before its first step, sends the "
        + "recorded actions, and asserts every recorded state change. Effects that read only "
        + "the clock run on a test clock, and what they send is received; what other effects "
        + "sent is fed in with `receive(replaying:)`. The comments give step numbers as the "
        + "trace has them.",
      indent: 0
    )
    lines.append("")
    lines += imports
    lines.append("")
    switch options.framework {
    case .swiftTesting:
      lines.append("@MainActor")
      lines.append(
        "@Suite(\(SwiftRenderer.stringLiteral("\(traceName), replayed through \(reducer)")))")
      lines.append("struct \(typeName) {")
    case .xctest:
      lines.append("final class \(typeName): XCTestCase {")
    case .plain:
      lines.append("@MainActor")
      lines.append("struct \(typeName) {")
    }
    return lines
  }

  private var preambleLineCount: Int { preamble.count }
  private var preamble: [String] = []

  func finish() -> GeneratedTest {
    var lines = preamble + body + ["}"]
    if renderer.usesDecoding {
      lines += [
        "",
        "/// Decodes a value the trace recorded as JSON, for types Swift has no literal for.",
        "private func decoded<Value: Decodable>(_ json: String) throws -> Value {",
        "  try JSONDecoder().decode(Value.self, from: Data(json.utf8))",
        "}",
      ]
    }
    return GeneratedTest(
      source: lines.joined(separator: "\n") + "\n",
      functions: functions,
      lines: stepLines,
      skippedSteps: skipped
    )
  }

  // MARK: Text

  /// `text` as `//` lines of at most 100 columns; line breaks in it become spaces, so nothing
  /// recorded can end the comment, and other control characters `\u{1B}` escapes, so that the
  /// file shows them rather than acting on the terminal it is printed on.
  static func comment(_ text: String, indent: Int) -> [String] {
    let prefix = String(repeating: "  ", count: indent) + "// "
    let words = text.split { $0.isNewline || $0 == " " }.map { word in
      word.unicodeScalars.map { scalar in
        scalar.properties.generalCategory == .control || SwiftRenderer.isBidiControl(scalar)
          ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
      }.joined()
    }
    var lines: [String] = []
    var line = prefix
    for word in words {
      if line.count > prefix.count, line.count + 1 + word.count > 100 {
        lines.append(line)
        line = prefix
      }
      line += (line.count > prefix.count ? " " : "") + word
    }
    lines.append(line)
    return lines
  }

  static func origin(of step: TraceStep) -> String {
    switch step.origin {
    case .send: "sent"
    case .effect(let cause?): "from the effect of step \(cause)"
    case .effect(nil): "from an effect of a step the trace does not have"
    }
  }

  static func list(_ items: [String]) -> String {
    items.count <= 1
      ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
  }

  /// A Swift array literal of `items`, on one line when short, else one item a line.
  static func list(_ items: [String], indent: Int) -> String {
    let single = "[" + items.joined(separator: ", ") + "]"
    if single.count <= 60 { return single }
    return "[\n" + items.map { "  " + $0 + ",\n" }.joined() + "]"
  }
}
