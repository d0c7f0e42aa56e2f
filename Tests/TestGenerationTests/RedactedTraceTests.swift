import Architecture
import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

/// Generated tests of a trace recorded with `.key("email")`, whose reducer refuses an address
/// without "@". Steps where the address is in the state or the action get a placeholder of its
/// type (`"<redacted>"`) where the reducer's result does not depend on it; the step whose result
/// does (a good address subscribed) is written disabled, saying which values to supply. Before,
/// every step holding an address was left out (and, before that, sent `"<redacted>"` into the
/// check, failing the unchanged reducer).
@MainActor
@Suite("Generated tests of a redacted trace")
struct RedactedTraceTests {
  @Test("a step that reads the redacted address is disabled, saying what to supply; the others run on placeholders")
  func placeholdersAndSupplies() throws {
    let file = try #require(
      GeneratedFile.all.first { $0.options.reducer == "NewsletterSignupFeature" })
    let test = try file.generate()
    #expect(test.skippedSteps.map(\.index) == [])
    #expect(test.functions.map(\.steps) == [0...2, 3...3, 4...8])
    #expect(test.functions.map(\.kind) == [.steps, .needsValues, .steps])
    #expect(
      test.source.contains(
        "// Supply the real values: step 3 reads what the trace redacted (its result depends on"))
    #expect(test.source.contains("// /email (String), now the placeholder \"<redacted>\""))
    #expect(
      test.source.contains(
        "// Redacted in its action: /emailChanged/email (String) is \"<redacted>\"."))
  }

  @Test("the functions that run pass against the reducer that recorded the trace")
  func unchangedReducerPasses() async throws {
    for function in NewsletterSignupFeatureReplay.all {
      var thrown: (any Error)?
      let issues = await withIssueCapture {
        do { try await function.run(NewsletterSignupFeatureReplay()) } catch { thrown = error }
      }
      #expect(issues.map(\.message) == [], "\(function.name)")
      #expect(thrown == nil, "\(function.name)")
    }
  }

  @Test("the disabled one fails on its placeholder, as the check said: the reducer reads it")
  func disabledFunctionReadsTheAddress() async throws {
    let issues = await withIssueCapture {
      try? await NewsletterSignupFeatureReplay().steps3To3()
    }
    #expect(issues.first?.message.hasPrefix("A state change does not match expectation") == true)
  }

  @Test("a change where no address is involved still fails them, at step 0")
  func realChangeCaught() async throws {
    let file = try #require(
      GeneratedFile.all.first { $0.options.reducer == "NewsletterUppercasingTopics" })
    let generated = try file.generate()
    let issues = await withIssueCapture {
      try? await NewsletterUppercasingTopicsReplay().steps0To2()
    }
    let first = try #require(issues.first)
    #expect(first.line == UInt(generated.lines[0] ?? 0))
    #expect(first.message.hasPrefix("A state change does not match expectation"))
  }

  @Test("the committed fixture is what the session records, redacted")
  func fixtureIsCurrent() throws {
    let directory = Scratch.url("newsletter")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("newsletter.ndjson").path
    try NewsletterSession.record(to: path)
    let fixture = GeneratedFile.url(NewsletterSession.fixture)
    if GeneratedFilesDriftTests.isRecording {
      try? FileManager.default.removeItem(at: fixture)
      try FileManager.default.copyItem(atPath: path, toPath: fixture.path)
      return
    }
    /// The lines without their `started` and `time` members, which differ per recording.
    func stable(_ text: String) throws -> [String] {
      try text.split(separator: "\n").map { line in
        guard var object = try JSONValue(parsing: String(line)).objectValue else { return "" }
        _ = object.removeValue(forKey: "started")
        _ = object.removeValue(forKey: "time")
        return JSONValue.object(object).jsonString
      }
    }
    let fresh = try String(contentsOfFile: path, encoding: .utf8)
    let committed = try String(contentsOf: fixture, encoding: .utf8)
    #expect(try stable(fresh) == stable(committed))
    #expect(!fresh.contains("example.com"))
  }
}
