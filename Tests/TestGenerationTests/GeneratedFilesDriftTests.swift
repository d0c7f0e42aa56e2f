import Foundation
import Recorder
import Testing

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
