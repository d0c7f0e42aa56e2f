import Foundation
import TestSupport
import Testing
import TraceJSON

/// From a crash in the field to a committed test, outside this package: an app's own process
/// records a long session and dies of a planted crash, `shrink` cuts the session down through
/// the app's replay host, and `gen-test` writes a test that compiles in the app's package and
/// fails at the crash, while its other tests pass.
@Suite(
  "A crashing session of an app outside the package shrinks to a test that fails at the crash",
  .tags(.slow), .slowSuite)
struct ShrinkRoundTripTests {
  static let tool = FreshReplayTests.executable("tca-replay")
  /// The generated suite's name, and its file's.
  static let suite = "KilnCrashTests"

  @Test("the kiln's 2,000-action crash shrinks to ≤ 5 sent actions; its test fails at the crash")
  func kilnCrashShrinksToAFailingTest() async throws {
    let clock = ContinuousClock()
    var phases: [String] = []
    var started = clock.now
    func phase(_ name: String) {
      phases.append("\(name) \(Int(((clock.now - started) / .seconds(1)).rounded())) s")
      started = clock.now
    }

    let package = try ConsumerPackage(
      name: "shrink-round-trip", apps: ["Kiln"], testTarget: "KilnGeneratedTests")
    defer { package.remove() }
    let host = try await package.shell("swift build --product ConsumerReplayHost 2>&1")
    try #require(host.status == 0, "\(host.output.suffix(3000))")
    let hostPath = package.executables.appendingPathComponent("ConsumerReplayHost").path
    phase("build")

    // The app's process records 2,000 sent actions and dies at the last: the kiln's crash.
    let trace = package.directory.appendingPathComponent("kiln.ndjson").path
    let recording = try await ChildProcess.runDetached(
      hostPath, ["record-kiln", "2000", trace], timeLimit: 120)
    #expect(recording.signal != nil, "the recording process did not die of the crash")
    let recorded = try Self.records(trace)
    try #require(recorded.last?["kind"] == "crash", "the trace does not end in a crash record")
    #expect(recorded.last?["label"] == ".cooldownStarted")
    // The crash record names its origin too (format version 4): steps only.
    #expect(recorded.count { $0["kind"] == "step" && $0["origin"] == "send" } + 1 == 2_000)
    phase("record")

    let shrunk = package.directory.appendingPathComponent("kiln.shrunk.ndjson").path
    let shrinking = try await ChildProcess.runDetached(
      Self.tool, ["shrink", trace, "--host", hostPath, "--output", shrunk], timeLimit: 600)
    let shrinkOutput = String(decoding: shrinking.output + shrinking.errors, as: UTF8.self)
    try #require(shrinking.status == 0, "\(shrinkOutput)")
    print(shrinkOutput)
    #expect(
      shrinkOutput.contains("the reducer crashes: Kiln/KilnFeature.swift:"), "\(shrinkOutput)")
    let kept = try #require(Self.sentActionsKept(shrinkOutput), "\(shrinkOutput)")
    #expect(kept <= 5, "\(shrinkOutput)")
    // The interlock comes off in service mode's effect: without it the damper cannot be forced.
    let labels = try Self.records(shrunk).compactMap { $0["label"]?.stringValue }
    for label in [".serviceModeEntered", ".interlockDisabled", ".damperForcedOpen"] {
      #expect(labels.contains(label), "\(labels)")
    }
    #expect(labels.last == ".cooldownStarted", "\(labels)")
    // 1-minimal, checked without the shrinker: the stepper skips each kept sent action (with
    // what its effects sent) and saves what the host runs, which no longer crashes.
    let sent = try Self.records(shrunk).filter { $0["kind"] == "step" && $0["origin"] == "send" }
      .compactMap { $0["index"]?.int64Value }
    for step in sent {
      let without = package.directory.appendingPathComponent("kiln.without-\(step).ndjson").path
      let script = package.directory.appendingPathComponent("skip-\(step).txt").path
      try "skip \(step)\nsave \(without)\n".write(toFile: script, atomically: true, encoding: .utf8)
      let stepper = try await ChildProcess.runDetached(
        "/bin/sh", ["-c", "exec \"$0\" step \"$1\" --host \"$2\" < \"$3\"", Self.tool, shrunk,
          hostPath, script], timeLimit: 120)
      #expect(stepper.status == 0, "\(String(decoding: stepper.errors, as: UTF8.self))")
      #expect(
        try Self.records(without).last?["kind"] == "step",
        "without step \(step) the shrunk session still crashes")
    }
    phase("shrink")

    let testFile = package.tests.appendingPathComponent("\(Self.suite).swift").path
    let generating = try await ChildProcess.runDetached(
      Self.tool, ["gen-test", shrunk, "--name", Self.suite, "--output", testFile])
    try #require(
      generating.status == 0, "\(String(decoding: generating.errors, as: UTF8.self))")
    let source = try String(contentsOfFile: testFile, encoding: .utf8)
    // Issue target: 60 lines at most, once initial states are Swift expressions.
    let length = source.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    print("\(Self.suite).swift, generated from \(labels.count) steps: \(length) lines")
    #expect(source.contains("processExitsWith: .success"), "\(source)")

    let build = try await package.build()
    try #require(build.status == 0, "the generated test does not compile:\n\(build.output)")
    phase("gen-test and build")
    let run = try await package.shell("swift test --skip-build --filter \(Self.suite) 2>&1")
    phase("test")
    print(phases.joined(separator: ", "))
    let lines = run.output.split(separator: "\n")
    let failed = lines.filter { $0.hasPrefix("✘ Test \"") && $0.contains(" failed after ") }
    let passed = lines.filter { $0.hasPrefix("✔ Test \"") && $0.contains(" passed after ") }
    #expect(run.status != 0, "the generated test passes: the crash is not caught\n\(run.output)")
    #expect(
      failed.count == 1 && failed[0].contains("which crashed the reducer when recorded"),
      "\(run.output)")
    let tests = source.components(separatedBy: "@Test(").count - 1
    #expect(passed.count == tests - 1 && tests > 1, "\(run.output)")
    // It fails because the step's child process died of a signal: the crash, not a mismatch.
    #expect(run.output.contains("Expectation failed: .success → .signal("), "\(run.output)")
    #expect(run.output.contains("still crashes the reducer"), "\(run.output)")
  }

  /// The trace's step and crash records, parsed.
  static func records(_ path: String) throws -> [JSONValue] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try JSONValue(parsing: Array($0.utf8))
    }
    .filter { ["step", "crash"].contains($0["kind"]?.stringValue) }
  }

  /// `3` from shrink's `shrunk to 4 steps, 3 sent actions, in 79 replays`.
  static func sentActionsKept(_ output: String) -> Int? {
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("shrunk to ") }),
      let clause = line.split(separator: ", ").dropFirst().first
    else { return nil }
    return Int(clause.split(separator: " ")[0])
  }
}
