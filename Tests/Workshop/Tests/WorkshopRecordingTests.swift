import Foundation
import Recorder
import TestSupport
import Testing

@testable import Workshop

/// The workshop (`Tests/Workshop/App`), a new user's app in shapes no other test app has,
/// recorded by today's code with no conformance added.
@MainActor
@Suite("The workshop, recorded as a new user records it")
struct WorkshopRecordingTests {
  /// Records the session into `workshop.ndjson` in a new folder under the test process's
  /// scratch folder, or under `WORKSHOP_TRACES_DIR` when it is set, to read it with the tool.
  static func record() async throws -> String {
    let parent = ProcessInfo.processInfo.environment["WORKSHOP_TRACES_DIR"]
      .map { URL(fileURLWithPath: $0).appendingPathComponent("workshop-\(UUID().uuidString)") }
    let folder = parent ?? Scratch.url("workshop")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("workshop.ndjson").path
    let recorder = try TraceRecorder(path: path)
    await WorkshopSession.run { $0.recording(to: recorder) }
    try recorder.close()
    return path
  }

  /// The built executable `name`, next to the test bundle.
  static func executable(_ name: String) -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent(name).path
  }

  @Test("the session records every action, its failure and its alert, and ends with an end record")
  func records() async throws {
    let path = try await Self.record()
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    let steps = lines.filter { $0.hasPrefix(#"{"kind":"step""#) }
    #expect(steps.count == 22)
    #expect(lines.last?.hasPrefix(#"{"kind":"end""#) == true)
    #expect(steps.contains { $0.contains("The supplier does not stock Carbon wheel.") })
    #expect(steps.contains { $0.contains("The bench is full") })
  }

  /// After changing the generator, rewrite the committed file with
  /// `RECORD_GENERATED_TESTS=1 swift test --filter WorkshopRecordingTests`.
  @Test("the committed generated test is what gen-test writes from today's recording")
  func generatedTestIsCurrent() async throws {
    let path = try await Self.record()
    let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Generated/WorkshopTraceTests.swift")
    let result = try await ChildProcess.runDetached(
      Self.executable("tca-replay"), ["gen-test", path])
    #expect(result.status == 0, "\(String(decoding: result.errors, as: UTF8.self))")
    let generated = String(decoding: result.output, as: UTF8.self)
    if ProcessInfo.processInfo.environment["RECORD_GENERATED_TESTS"] != nil {
      try generated.write(to: committed, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      try String(contentsOf: committed, encoding: .utf8) == generated,
      "Generated/WorkshopTraceTests.swift has drifted: rewrite it with RECORD_GENERATED_TESTS=1")
  }
}
