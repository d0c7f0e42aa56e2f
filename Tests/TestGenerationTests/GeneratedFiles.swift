import Bookshelf
import ComposedApp
import Counter
import Foundation
import Recorder
import Testing
import Todos

@testable import Shapes

/// Every generated test file committed in the package, with the trace and options it comes
/// from: what the drift test regenerates and compares.
struct GeneratedFile: Sendable, CustomTestStringConvertible {
  /// The trace, relative to the package root.
  var trace: String
  /// The generated file, relative to the package root.
  var output: String
  var options: TestGenerator.Options

  var testDescription: String { output.split(separator: "/").last.map(String.init) ?? output }

  /// The package root: this file is `<root>/Tests/TestGenerationTests/GeneratedFiles.swift`.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func url(_ relativePath: String) -> URL {
    packageRoot.appendingPathComponent(relativePath)
  }

  func generate() throws -> GeneratedTest {
    try TestGenerator(options: options).generate(tracePath: Self.url(trace).path)
  }

  static let all: [GeneratedFile] = {
    var files: [GeneratedFile] = []
    let traces: [(file: String, name: String, check: TestGenerator.TypeCheck)] = [
      ("counter", "Counter", .decoding(CounterFeature.State.self, CounterFeature.Action.self)),
      ("todos", "Todos", .decoding(TodosFeature.State.self, TodosFeature.Action.self)),
      ("composed-app", "ComposedApp", .decoding(AppFeature.State.self, AppFeature.Action.self)),
      (
        "bookshelf", "Bookshelf",
        .decoding(BookshelfFeature.State.self, BookshelfFeature.Action.self)
      ),
    ]
    for trace in traces {
      for (framework, suffix) in [
        (TestGenerator.Framework.swiftTesting, "Tests"), (.xctest, "XCTests"),
      ] {
        var options = TestGenerator.Options()
        options.framework = framework
        options.typeName = "\(trace.name)Trace\(suffix)"
        options.typeCheck = trace.check
        files.append(
          GeneratedFile(
            trace: "Traces/\(trace.file).ndjson",
            output: "Tests/GeneratedTests/Generated/\(trace.name)Trace\(suffix).swift",
            options: options
          )
        )
      }
    }
    // A damaged trace: a step whose action no longer decodes, one that was never encoded, a
    // redacted member and an action without type information.
    var damaged = TestGenerator.Options()
    damaged.typeName = "DamagedCounterTraceTests"
    damaged.typeCheck = .decoding(CounterFeature.State.self, CounterFeature.Action.self)
    files.append(
      GeneratedFile(
        trace: "Tests/TestGenerationTests/Fixtures/counter-damaged.ndjson",
        output: "Tests/GeneratedTests/Generated/DamagedCounterTraceTests.swift",
        options: damaged
      )
    )
    // The mutation check: the counter's first steps against its own reducer and against
    // deliberately broken copies of it, as plain functions whose failures a test can capture.
    for mutant in ["CounterFeature", "CounterIncrementingByTwo", "CounterTickingByTwo"] {
      var options = TestGenerator.Options()
      options.framework = .plain
      options.typeName = "\(mutant)Replay"
      options.reducer = mutant
      options.steps = 0...12
      files.append(
        GeneratedFile(
          trace: "Traces/counter.ndjson",
          output: "Tests/TestGenerationTests/Mutants/\(mutant)Replay.swift",
          options: options
        )
      )
    }
    // The brew timer (Tests/Shapes), whose timer and debounced save a generated test runs on
    // a test clock: its test, and the effect mutation check against reducers whose effects
    // alone are broken (Mutants/BrewMutants.swift).
    let brewCheck = TestGenerator.TypeCheck.decoding(
      BrewTimerFeature.State.self, BrewTimerFeature.Action.self)
    var brew = TestGenerator.Options()
    brew.typeName = "BrewTimerTraceTests"
    brew.typeCheck = brewCheck
    files.append(
      GeneratedFile(
        trace: BrewSession.fixture,
        output: "Tests/GeneratedTests/Generated/BrewTimerTraceTests.swift",
        options: brew
      )
    )
    for mutant in brewMutants {
      var options = TestGenerator.Options()
      options.framework = .plain
      options.typeName = "\(mutant)Replay"
      options.reducer = mutant
      options.typeCheck = brewCheck
      files.append(
        GeneratedFile(
          trace: BrewSession.fixture,
          output: "Tests/TestGenerationTests/Mutants/\(mutant)Replay.swift",
          options: options
        )
      )
    }
    // A trace recorded with `.key("email")`: its tests leave out the steps that read an address
    // and pass against the reducer that recorded it; a change elsewhere still fails them.
    let newsletterCheck = TestGenerator.TypeCheck.decoding(
      NewsletterSignupFeature.State.self, NewsletterSignupFeature.Action.self)
    var newsletter = TestGenerator.Options()
    newsletter.typeName = "NewsletterRedactedTraceTests"
    newsletter.typeCheck = newsletterCheck
    newsletter.redactionCheck = .reducing(NewsletterSignupFeature())
    files.append(
      GeneratedFile(
        trace: NewsletterSession.fixture,
        output: "Tests/GeneratedTests/Generated/NewsletterRedactedTraceTests.swift",
        options: newsletter
      )
    )
    for mutant in ["NewsletterSignupFeature", "NewsletterUppercasingTopics"] {
      var options = TestGenerator.Options()
      options.framework = .plain
      options.typeName = "\(mutant)Replay"
      options.reducer = mutant
      options.typeCheck = newsletterCheck
      options.redactionCheck = .reducing(NewsletterSignupFeature())
      files.append(
        GeneratedFile(
          trace: NewsletterSession.fixture,
          output: "Tests/TestGenerationTests/Mutants/\(mutant)Replay.swift",
          options: options
        )
      )
    }
    return files
  }()

  /// The brew timer's reducer and its effect mutants, as the generated tests name them.
  static let brewMutants = [
    "BrewTimerFeature", "BrewDroppingSave", "BrewSavingWithoutCancelInFlight",
    "BrewStoppingWrongID", "BrewTickingEveryTwoSeconds", "BrewReadingDateTwice",
  ]
}
