import Foundation
import Testing
import TestSupport

@testable import Recorder
@testable import TraceJSON

@Suite("Crash safety")
struct CrashSafetyTests {
  /// The `record-traces` executable, built next to the test bundle.
  static var recordTraces: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("record-traces")
  }

  @Test("an app that exits without closing its recorder leaves every step and the end record")
  func exitWithoutClose() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("exited-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }

    let process = Process()
    process.executableURL = Self.recordTraces
    process.arguments = ["--exit-without-close", "50", path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)

    let text = try String(contentsOfFile: path, encoding: .utf8)
    let kinds = text.split(separator: "\n").map { line -> String in
      let record = try? TraceRecord(json: JSONValue(parsing: String(line)))
      switch record {
      case .header?: return "header"
      case .step?: return "step"
      case .end?: return "end"
      default: return "other"
      }
    }
    #expect(kinds.first == "header")
    #expect(kinds.filter { $0 == "step" }.count == 50)
    #expect(kinds.last == "end")
  }

  @Test(
    "a recorder local to a function that returns, never closed, leaves every step and the end",
    arguments: [1, 1_000])
  func returnWithoutClose(steps: Int) throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("returned-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let child = try ChildProcess.run(
      Self.recordTraces.path, ["--return-without-close", String(steps), path])
    #expect(child.status == 0)

    let kinds = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .map { line -> String in
        switch try? TraceRecord(json: JSONValue(parsing: String(line))) {
        case .header?: "header"
        case .step?: "step"
        case .end?: "end"
        default: "other"
        }
      }
    #expect(kinds.first == "header")
    #expect(kinds.filter { $0 == "step" }.count == steps)
    #expect(kinds.last == "end")
  }

  @Test("a recorder killed with SIGKILL leaves a file that loads up to its last complete line")
  func sigkill() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("killed-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }

    let process = Process()
    process.executableURL = Self.recordTraces
    process.arguments = ["--until-killed", path]
    try process.run()
    // If a check below fails first, the recorder must not go on writing for the rest of the run.
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    // Let it write a good amount, then kill it mid-stride.
    let deadline = ContinuousClock.now.advanced(by: .seconds(300))
    while (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 < 200_000 {
      try #require(ContinuousClock.now < deadline, "the recorder never wrote 200 KB")
      try await Task.sleep(for: .milliseconds(5))
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)

    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // A file that does not end in a newline ends in a torn line, which a reader drops.
    let torn = lines.removeLast()
    #expect(bytes.last == UInt8(ascii: "\n") ? torn.isEmpty : !torn.isEmpty)

    var expectedIndex = 0
    var sawHeader = false
    for line in lines {
      let record = try #require(try TraceRecord(json: JSONValue(parsing: line)))
      switch record {
      case .header: sawHeader = true
      case let .step(step):
        #expect(step.index == expectedIndex)
        expectedIndex += 1
      case .end: Issue.record("a killed recorder cannot have closed its trace")
      default: break
      }
    }
    #expect(sawHeader)
    #expect(expectedIndex > 500)
  }
}
