import Foundation
import Recorder
import Testing
import TraceJSON

/// The committed generated tests are what the generator writes today. After changing the
/// generator or re-recording `Traces/`, rewrite them with
/// `RECORD_GENERATED_TESTS=1 swift test --filter GeneratedFilesDriftTests`.
@Suite("Committed generated tests")
struct GeneratedFilesDriftTests {
  static let isRecording = ProcessInfo.processInfo.environment["RECORD_GENERATED_TESTS"] != nil

  @Test(
    "the committed file is exactly what gen-test writes from its trace",
    arguments: GeneratedFile.all)
  func noDrift(_ file: GeneratedFile) throws {
    let generated = try file.generate().source
    let url = GeneratedFile.url(file.output)
    if Self.isRecording {
      try generated.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let committed = try String(contentsOf: url, encoding: .utf8)
    guard committed != generated else { return }
    let committedLines = committed.split(separator: "\n", omittingEmptySubsequences: false)
    let generatedLines = generated.split(separator: "\n", omittingEmptySubsequences: false)
    let line = zip(committedLines, generatedLines).prefix { $0 == $1 }.count
    Issue.record(
      """
      \(file.output) has drifted from its trace \(file.trace), from line \(line + 1):
        committed: \(line < committedLines.count ? committedLines[line] : "(end of file)")
        generated: \(line < generatedLines.count ? generatedLines[line] : "(end of file)")
      Rewrite it with RECORD_GENERATED_TESTS=1 swift test --filter GeneratedFilesDriftTests.
      """
    )
  }
}

@Suite("The README's generated test")
struct ReadmeExampleTests {
  static let readme = GeneratedFile.url("README.md")

  @Test("the README shows what gen-test writes today for the steps it quotes")
  func generatedTestIsCurrent() throws {
    var options = TestGenerator.Options()
    options.framework = .xctest
    options.steps = 4...8
    let source = try TestGenerator(options: options)
      .generate(tracePath: GeneratedFile.url("Traces/counter.ndjson").path).source
    let readme = try String(contentsOf: Self.readme, encoding: .utf8)
    #expect(
      readme.contains("```swift\n" + source + "```\n"),
      """
      README.md's example differs from what this writes: \
      tca-replay gen-test Traces/counter.ndjson --steps 4...8 --framework xctest
      """
    )
  }

  @Test("the trace lines it quotes are the trace's, less their time and types")
  func traceExcerptIsReal() throws {
    let readme = try String(contentsOf: Self.readme, encoding: .utf8)
    let quoted = readme.split(separator: "\n").filter {
      $0.hasPrefix(#"{"kind":"step","index":"#) && !$0.contains(#""time":"#)
    }
    #expect(quoted.count == 5)
    let trace = try String(
      contentsOf: GeneratedFile.url("Traces/counter.ndjson"), encoding: .utf8
    )
    for line in trace.split(separator: "\n") {
      guard var object = try JSONValue(parsing: String(line)).objectValue,
        let index = object["index"]?.int64Value, (4...8).contains(index)
      else { continue }
      _ = object.removeValue(forKey: "time")
      _ = object.removeValue(forKey: "types")
      #expect(quoted.contains(Substring(JSONValue.object(object).jsonString)))
    }
  }
}
