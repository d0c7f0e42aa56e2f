import Foundation
import TraceJSON

/// Assembles a generated test file, function by function, keeping the line of every step.
struct TestFileWriter {
  let options: TestGenerator.Options
  let header: TraceHeader
  let schema: TypeSchema
  let traceName: String
  let effects: EffectPlan
  var renderer: SwiftRenderer
  var body: [String] = []
  var functions: [GeneratedTest.Function] = []
  var stepLines: [Int: Int] = [:]
  var blocks: [Int: ClosedRange<Int>] = [:]
  /// The helpers that build each function's starting state, written after the functions.
  var startHelpers: [String] = []
  /// The step and state the last function started from, which the next may build on.
  var previousStart: (step: Int, state: JSONValue)?
  var skipped: [GeneratedTest.SkippedStep] = []

  init(
    options: TestGenerator.Options, header: TraceHeader, schema: TypeSchema, traceName: String,
    effects: EffectPlan, hasEffects: Bool = true
  ) {
    self.effects = effects
    self.hasEffects = hasEffects
    self.options = options
    self.header = header
    self.schema = schema
    self.traceName = traceName
    renderer = SwiftRenderer(schema: schema)
    placeholders = RedactionPlaceholders(schema: schema)
    preamble = makePreamble()
  }

  let placeholders: RedactionPlaceholders
  /// Whether any step started an effect or came from one: the preamble then says how tests
  /// treat them.
  let hasEffects: Bool

  /// The comment on placeholders standing in for redacted values in `what` (the state, an
  /// action): where, and what stands in.
  func placeholderComment(_ sites: [RedactionPlaceholders.Site], in what: String) -> [String] {
    guard !sites.isEmpty else { return [] }
    let described = sites.map { site in
      (site.path.isEmpty ? "/" : site.path) + (site.type.map { " (\($0))" } ?? "")
        + (site.placeholder.map { " is \($0.jsonString)" } ?? " has no placeholder")
    }
    return Self.comment("Redacted in \(what): \(Self.list(described)).", indent: 2)
  }

  var typeName: String {
    if let name = options.typeName { return name }
    let base = traceName.split(separator: ".").first.map(String.init) ?? "Recorded"
    let words = base.split { !$0.isLetter && !$0.isNumber }
    let camel = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    let name = (camel.first?.isLetter == true ? camel : "Recorded" + camel) + "TraceTests"
    // The file name is anyone's; only an identifier may name the type.
    return TypeName.isIdentifier(name) ? name : "RecordedTraceTests"
  }

  var reducer: String {
    options.reducer ?? TypeName.displayName(header.reducer)
  }

  /// The name of the factory a generated test builds a reducer with when `Feature()` cannot.
  static let reducerFactory = "forGeneratedTests"

  /// The lines that build the reducer in a `TestStore`'s closure: `Feature()`; or, for a reducer
  /// whose stored properties are not all `@Dependency`s (the trace's `reducerProperties`), a
  /// call to a factory the user writes once, which the compiler names until it exists.
  var reducerLines: [String] {
    let properties = header.reducerProperties.filter(TypeName.isIdentifier)
    guard options.reducer == nil, !properties.isEmpty else { return ["      \(reducer)()"] }
    let base = String(reducer.prefix { $0 != "<" })
    let arguments = properties.map { "\($0): …" }.joined(separator: ", ")
    return Self.comment(
      "\(base) stores \(properties.joined(separator: ", ")), which a test cannot supply: write "
        + "this once in the test target, `extension \(base) { static func "
        + "\(Self.reducerFactory)() -> Self { \(base)(\(arguments)) } }`, or pass "
        + "gen-test --reducer a type whose init() builds it.",
      indent: 3)
      + ["      \(reducer).\(Self.reducerFactory)()"]
  }

  // MARK: Functions

  /// Writes one test function replaying `steps`, starting from `state`.
  ///
  /// `needs` says why the steps need values the trace redacted, which the user must supply; the
  /// function is then disabled (skipped, in XCTest) until they do, and its comments list them.
  mutating func writeFunction(
    _ steps: [TraceStep], from recordedState: JSONValue, needs: [String] = []
  ) throws(TestGenerationError) {
    guard let first = steps.first?.index, let last = steps.last?.index else { return }
    let name = "steps\(first)To\(last)"
    let kind: GeneratedTest.Function.Kind = needs.isEmpty ? .steps : .needsValues
    let skip = "it needs values the trace redacted: supply them as its comments say"
    if !body.isEmpty { body.append("") }
    switch options.framework {
    case .swiftTesting:
      let disabled = needs.isEmpty ? "" : ", .disabled(\"\(skip)\")"
      body.append("  @Test(\"steps \(first) to \(last)\"\(disabled))")
      body.append("  func \(name)() async throws {")
      functions.append(.init(name: name, steps: first...last, kind: kind))
    case .xctest:
      body.append("  @MainActor")
      body.append("  func test\(name.prefix(1).uppercased() + name.dropFirst())() async throws {")
      functions.append(
        .init(
          name: "test" + name.prefix(1).uppercased() + name.dropFirst(), steps: first...last,
          kind: kind))
      if !needs.isEmpty { body.append("    try XCTSkipIf(true, \"\(skip)\")") }
    case .plain:
      body.append("  func \(name)() async throws {")
      functions.append(.init(name: name, steps: first...last, kind: kind))
    }

    let filled = placeholders.fill(recordedState, type: header.stateType)
    let state = filled.value
    if needs.isEmpty {
      body += placeholderComment(filled.sites, in: "it")
    } else {
      let sites = filled.sites + steps.flatMap { step in
        placeholders.fill(step.action ?? .null, type: header.actionType).sites.map {
          RedactionPlaceholders.Site(
            path: "step \(step.index)'s action at \($0.path)", type: $0.type,
            placeholder: $0.placeholder)
        }
      }
      body += Self.comment(
        "Supply the real values: \(Self.list(Array(Set(needs)).sorted())), so placeholders "
          + "cannot stand in for them. Replace each of these with the value recorded, then "
          + "enable the test:",
        indent: 2)
      for site in sites {
        let placeholder =
          site.placeholder.map { "the placeholder \($0.jsonString)" } ?? "\"<redacted>\""
        body += Self.comment(
          "  \(site.path.isEmpty ? "/" : site.path)\(site.type.map { " (\($0))" } ?? ""), now "
            + placeholder,
          indent: 2)
      }
    }
    if needs.isEmpty {
      declareInitialState(state, before: first)
    } else {
      declareInitialState(state)
      previousStart = nil
    }
    let schedule = EffectSchedule(steps: steps, plan: effects)
    if schedule.runsEffects { body.append("    let clock = TestClock()") }
    body.append("    let store = TestStore(initialState: initialState) {")
    body += reducerLines
    let dependencies =
      schedule.clocks.sorted().map { "$0.\($0) = clock" } + dependencyLines(steps)
    if dependencies.isEmpty {
      body.append("    }")
    } else {
      body.append("    } withDependencies: {")
      for line in dependencies { append(line, indent: 3) }
      body.append("    }")
    }
    if !schedule.runsEffects { body.append("    store.runsEffects = false") }

    // Placeholders flow from actions into the state (RedactionFlow): exhaustivity is off only
    // for steps that change a redacted value the test cannot know, and a store whose
    // exhaustivity is off needs assignments, never relative edits.
    typealias Asserted = (
      step: TraceStep, assertion: StateAssertionWriter.Assertion, exhaustive: Bool,
      unknown: [String]
    )
    var assertions: [Asserted] = []
    var writer = StateAssertionWriter(schema: schema, stateType: header.stateType)
    var flow = RedactionFlow(
      placeholders: placeholders, stateType: header.stateType, actionType: header.actionType,
      recorded: recordedState)
    for step in steps {
      do {
        var current = flow.state
        let known = try flow.advance(step)
        writer.absolute = !known.exhaustive
        let assertion = try writer.assertion(for: known.patch, state: &current, renderer: &renderer)
        assertions.append((step, assertion, known.exhaustive, known.unknownWritten))
      } catch {
        throw TestGenerationError(
          .badTrace, "\(traceName): step \(step.index)'s patch does not apply: \(error)"
        )
      }
    }
    var exhaustive = true
    func setExhaustivity(_ on: Bool, step: Int, unknown: [String]) {
      guard on != exhaustive else { return }
      exhaustive = on
      if on {
        body.append("    store.exhaustivity = .on")
      } else {
        let what = unknown.isEmpty ? "a redacted value" : Self.list(unknown)
        body += Self.comment(
          "Step \(step) changes \(what), which the trace redacted and nothing the test sends "
            + "predicts: exhaustivity is off while it does.",
          indent: 2)
        body.append("    store.exhaustivity = .off")
      }
    }
    // Placeholders in actions are explained once per function, where first sent.
    var explained: Set<String> = []
    var fedReasonsSaid: Set<String> = []

    for (step, assertion, stepIsExhaustive, unknown) in assertions {
      let blockStart = body.count + 1 + preambleLineCount
      defer { blocks[step.index] = blockStart...(body.count + preambleLineCount) }
      setExhaustivity(stepIsExhaustive, step: step.index, unknown: unknown)
      for path in assertion.redactedPaths where !unknown.contains(path) {
        body += Self.comment("\(path) is redacted and unknown here: not asserted.", indent: 2)
      }
      let sent = placeholders.fill(step.action ?? .null, type: header.actionType)
      let unexplained = sent.sites.filter { explained.insert($0.path + ($0.type ?? "")).inserted }
      if needs.isEmpty { body += placeholderComment(unexplained, in: "its action") }
      let action =
        options.decodesActions
        ? renderer.fallback(sent.value, 0)
        : renderer.expression(sent.value, type: header.actionType)
      if let reason = schedule.fedReasons[step.index] {
        // Each kind of reason said once a function: `receive(replaying:)` says the rest.
        if fedReasonsSaid.insert(reason.filter { !$0.isNumber }).inserted {
          body += Self.comment("Fed in: \(reason).", indent: 2)
        }
      }
      if let setting = schedule.settings[step.index] {
        body.append("    store.runsEffects = \(setting)")
      }
      if let milliseconds = schedule.advances[step.index] {
        body.append("    " + EffectSchedule.advance(milliseconds))
      }
      for sent in schedule.finishesBefore[step.index] ?? [] {
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
      writeCall(call, statements: assertion.statements, step: step)
      for sent in schedule.finishesAfter[step.index] ?? [] {
        body.append("    await step\(sent).finish()")
      }
    }
    if !schedule.runningAtEnd.isEmpty {
      body.append("")
      body += Self.comment(
        "The recording was still running the effects of "
          + "\(Self.list(schedule.runningAtEnd.map { "step \($0)" })) here; what they send "
          + "after this test's last step is the next test's to assert.",
        indent: 2)
      body.append("    store.exhaustivity = .off")
      body.append("    await store.skipInFlightEffects(strict: false)")
    }
    body.append("  }")
  }

  /// Writes a step's call with its assertion closure as compactly as it reads, on one line when
  /// it fits in 100 columns, and marks it with the step's number, which failures are traced by.
  private mutating func writeCall(_ call: String, statements: [String], step: TraceStep) {
    let pad = "    "
    var lines = call.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if statements.count == 1, lines.count == 1, !statements[0].contains("\n"),
      pad.count + call.count + statements[0].count + 6 <= 100
    {
      lines[0] += " { \(statements[0]) }"
    } else if !statements.isEmpty {
      lines[lines.count - 1] += " {"
      for statement in statements {
        lines += statement.split(separator: "\n", omittingEmptySubsequences: false).map {
          $0.isEmpty ? "" : "  " + $0
        }
      }
      lines.append("}")
    }
    let marker = "// " + Self.marker(of: step)
    if pad.count + lines[0].count + 2 + marker.count <= 100 {
      lines[0] += "  " + marker
    } else if lines.count > 1, lines[lines.count - 1] == "}" {
      lines[lines.count - 1] += "  " + marker
    } else {
      body.append(pad + marker)
    }
    stepLines[step.index] = body.count + 1 + preambleLineCount
    append(lines.joined(separator: "\n"), indent: 2)
  }

  /// The comment that marks a step's call: `Step 6, effect of 5` (sent by step 5's effect).
  static func marker(of step: TraceStep) -> String {
    switch step.origin {
    case .send: "Step \(step.index)"
    case .effect(let cause?): "Step \(step.index), effect of \(cause)"
    case .effect(nil): "Step \(step.index), effect of a step the trace lacks"
    }
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
    // The machine's settings as the first step that read each found them.
    var settings: [String: String] = [:]
    for value in steps.flatMap(\.dependencies) {
      switch value {
      case .uuid(let uuid): uuids.append(uuid)
      case .date(let date): dates.append(date)
      case .random(let number): randoms.append(number)
      case .stackElementID(let id): stackElementIDs.append(id)
      case .client: break
      case .locale, .timeZone, .calendar, .temporaryDirectory:
        if let (name, line) = settingLine(value), settings[name] == nil { settings[name] = line }
      }
    }
    var lines: [String] = settings.keys.sorted().compactMap { settings[$0] }
    // Sequences, never `.incrementing` or `.constant`: a reducer that reads one value more
    // than the recording did fails the step that asks for it.
    if !uuids.isEmpty {
      let expressions = uuids.map { renderer.expression(.string($0), type: "Foundation.UUID") }
      lines.append("$0.uuid = .sequence(\(Self.list(expressions, indent: 3)))")
    }
    if dates.count == 1 {
      let date = "Date(timeIntervalSinceReferenceDate: \(SwiftValue.number(dates[0])))"
      lines.append("$0.date = .sequence([\(date)])")
    } else if !dates.isEmpty {
      // The seconds, many to a line, each made a date: what a person writes for a long list.
      let seconds = dates.map { SwiftValue.number($0) }
      lines.append(
        "$0.date = .sequence(\(Self.list(seconds, indent: 3))"
          + ".map(Date.init(timeIntervalSinceReferenceDate:)))")
    }
    if !randoms.isEmpty {
      lines.append(
        "$0.withRandomNumberGenerator = WithRandomNumberGenerator("
          + "SequenceRandomNumberGenerator(\(Self.list(randoms.map(String.init), indent: 3))))"
      )
    }
    // A test store counts stack element ids up from 0; a trace that starts later says where.
    if let first = stackElementIDs.first, first != 0 {
      lines.append("$0.stackElementID = .incrementing(from: \(first))")
    }
    return lines
  }

  /// The `withDependencies` line that sets a recorded setting, by the property it sets.
  private func settingLine(_ value: DependencyValue) -> (String, String)? {
    let literal = SwiftValue.stringLiteral
    switch value {
    case let .locale(identifier):
      return ("locale", "$0.locale = Locale(identifier: \(literal(identifier)))")
    case let .timeZone(identifier):
      return ("timeZone", "$0.timeZone = TimeZone(identifier: \(literal(identifier)))!")
    case let .temporaryDirectory(url):
      return ("temporaryDirectory", "$0.temporaryDirectory = URL(string: \(literal(url)))!")
    case let .calendar(recorded):
      // Only an identifier Foundation knows is written, so the trace's text is never code.
      guard RecordedCalendar.identifiers[recorded.identifier] != nil else { return nil }
      var members = [
        "var calendar = Calendar(identifier: .\(recorded.identifier))",
        "calendar.timeZone = TimeZone(identifier: \(literal(recorded.timeZone)))!",
      ]
      if let locale = recorded.locale {
        members.append("calendar.locale = Locale(identifier: \(literal(locale)))")
      }
      members += [
        "calendar.firstWeekday = \(recorded.firstWeekday)",
        "calendar.minimumDaysInFirstWeek = \(recorded.minimumDaysInFirstWeek)",
        "return calendar",
      ]
      let body = members.map { "  " + $0 }.joined(separator: "\n")
      return ("calendar", "$0.calendar = {\n" + body + "\n}()")
    default:
      return nil
    }
  }

  /// Appends `code`, which may span lines, at `indent` levels of two spaces.
  mutating func append(_ code: String, indent: Int) {
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
      if let module = TypeName.module(of: type) { modules.insert(module) }
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
      "Generated by `tca-replay gen-test` from \(traceName): regenerate it, do not edit it.",
      indent: 0
    )
    lines.append("//")
    let checked =
      options.redactionCheck != nil
      ? "Each step that holds one was run with two placeholders to check that it does not read it."
      : "The command line cannot run the reducer to check that a step does not read one: a step "
        + "that computes from a redacted value fails, and needs the value recorded."
    let redactionSentence =
      header.redactions.isEmpty
      ? ""
      : " A redacted value is the placeholder of its type (\"<redacted>\" for a string) in "
        + "actions and states alike, so one sent and kept is asserted as sent. " + checked
    let effectsSentence =
      hasEffects
      ? " Effects that read only the clock (or dismiss) run, on a test clock advanced as the "
        + "recording's moved, and what they send is received; `await stepN.finish()` waits "
        + "where the recording saw step N's effects end. What other effects sent is fed in "
        + "with `receive(replaying:)`." : ""
    lines += Self.comment(
      "Each test sends the recorded actions from the state recorded before them and asserts "
        + "every recorded state change." + effectsSentence + redactionSentence
        + " `// Step N` gives the trace's step number.",
      indent: 0
    )
    lines.append("")
    lines += imports
    lines.append("")
    switch options.framework {
    case .swiftTesting:
      lines.append("@MainActor")
      lines.append(
        "@Suite(\(SwiftValue.stringLiteral("\(traceName), replayed through \(reducer)")))")
      lines.append("struct \(typeName) {")
    case .xctest:
      lines.append("final class \(typeName): XCTestCase {")
    case .plain:
      lines.append("@MainActor")
      lines.append("struct \(typeName) {")
    }
    return lines
  }

  var preambleLineCount: Int { preamble.count }
  private var preamble: [String] = []

  func finish() -> GeneratedTest {
    var lines = preamble + body + startHelpers
    if options.framework == .plain {
      // Plain functions are run by code, which needs them by name.
      let runnable = functions.filter { $0.kind == .steps }
      let declaration = "  static let all: [(name: String, run: @MainActor (Self) async throws -> Void)]"
      if !body.isEmpty { lines.append("") }
      lines.append(
        "  /// The functions above that replay recorded steps, in order, for code that runs "
          + "them all.")
      if runnable.isEmpty {
        lines.append(declaration + " = []")
      } else {
        lines.append(declaration + " = [")
        for function in runnable {
          lines.append("    (\"\(function.name)\", { try await $0.\(function.name)() }),")
        }
        lines.append("  ]")
      }
    }
    lines.append("}")
    if renderer.usesDecoding {
      lines.append("")
      let undecodable = renderer.undecodableTypes.sorted().map(TypeName.displayName)
      if !undecodable.isEmpty {
        lines += Self.comment(
          "The trace says \(undecodable.joined(separator: ", ")) cannot be decoded, and "
            + "gen-test knows no Swift form for them (a struct encoded under other names than "
            + "its stored properties, or a type it does not describe): make them Decodable, or "
            + "encode their stored properties under their own names (GeneratingTests.md).",
          indent: 0)
      }
      lines += [
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
      blocks: blocks,
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
        scalar.properties.generalCategory == .control || SwiftValue.isBidiControl(scalar)
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

  static func list(_ items: [String]) -> String {
    items.count <= 1
      ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
  }

  /// A Swift array literal of `items`, on one line when short, else as many to a line as fit
  /// in 100 columns at `indent` levels of two spaces.
  static func list(_ items: [String], indent: Int) -> String {
    let single = "[" + items.joined(separator: ", ") + "]"
    if single.count <= 60 { return single }
    let lines = SwiftValue.packed(items, width: 100 - 2 * indent - 2, lastComma: true)
    return "[\n" + lines.map { "  " + $0 + "\n" }.joined() + "]"
  }
}
