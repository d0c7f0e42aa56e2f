import Foundation
import TestSupport
import Testing

/// `git bisect run` with `verify` as its test, across a navigation app's history: the demo in
/// `Scripts/` records a fresh session, builds a history of seven commits with one bad one, and
/// must name that one. A false alarm on any good commit would make it name another.
@Suite("git bisect run on a navigation app", .tags(.slow), .slowSuite)
struct BisectDemoTests {
  @Test("Scripts/bisect-navigation-demo.sh names the commit that broke the notes' autosave")
  func namesTheBadCommit() async throws {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var environment = ProcessInfo.processInfo.environment
    environment["TCA_REPLAY"] = FreshReplayTests.executable("tca-replay")
    environment["RECORD_TRACES"] = FreshReplayTests.executable("record-traces")
    let result = try await ChildProcess.runDetached(
      "/bin/sh", [root.appendingPathComponent("Scripts/bisect-navigation-demo.sh").path],
      directory: root.path, environment: environment)
    let output = String(decoding: result.output + result.errors, as: UTF8.self)
    #expect(result.status == 0, "\(output.suffix(4000))")
    let verdict = output.components(separatedBy: "is the first bad commit").dropFirst().first
    #expect(verdict?.contains("Notes: let autosaves overlap") == true, "\(output.suffix(4000))")
  }
}
