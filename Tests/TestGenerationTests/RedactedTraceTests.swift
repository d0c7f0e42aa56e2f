import Architecture
import Foundation
import Recorder
import Testing

/// Generated tests of a trace recorded with `.key("email")`, whose reducer refuses an address
/// without "@": no test sends the placeholder `"<redacted>"` into that check. Before, the test
/// that started after the first address began from `email: "<redacted>"`, the check refused it,
/// and the test failed on the reducer that recorded it.
@MainActor
@Suite("Generated tests of a redacted trace")
struct RedactedTraceTests {
  @Test("the steps whose action or prior state holds a redacted address are left out, in runs")
  func leftOut() throws {
    let file = try #require(
      GeneratedFile.all.first { $0.options.reducer == "NewsletterSignupFeature" })
    let test = try file.generate()
    #expect(test.skippedSteps.map(\.index) == [1, 2, 3, 5, 6, 7])
    #expect(test.functions.map(\.steps) == [0...0, 4...4, 8...8])
    // The placeholder appears only in comments, quoting the labels of the steps left out.
    let code = test.source.split(separator: "\n").filter {
      !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }
    #expect(!code.contains { $0.contains("<redacted>") })
    #expect(
      test.source.contains(
        "// Steps 2 to 3 are left out: for each, the state before it holds a redacted value"))
  }

  @Test("they pass against the reducer that recorded the trace")
  func unchangedReducerPasses() async throws {
    let issues = await withIssueCapture {
      let replay = NewsletterSignupFeatureReplay()
      try? await replay.steps0To0()
      try? await replay.steps4To4()
      try? await replay.steps8To8()
    }
    #expect(issues.map(\.message) == [])
  }

  @Test("a change where no address is involved still fails them, at step 0")
  func realChangeCaught() async throws {
    let file = try #require(
      GeneratedFile.all.first { $0.options.reducer == "NewsletterUppercasingTopics" })
    let generated = try file.generate()
    let issues = await withIssueCapture {
      try? await NewsletterUppercasingTopicsReplay().steps0To0()
    }
    let first = try #require(issues.first)
    #expect(first.line == UInt(generated.lines[0] ?? 0))
    #expect(first.message.hasPrefix("A state change does not match expectation"))
  }

  @Test("the committed fixture is what the session records, redacted")
  func fixtureIsCurrent() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("newsletter-\(UUID().uuidString)")
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
