import Architecture
import Foundation
import Recorder
import ReplayMutants
import TestSupport
import Testing

/// The generated tests of a trace that ends in a crash send the crashing step again: they fail
/// while the reducer still crashes there, and pass once it no longer does. Before, gen-test
/// left that step out (it has no step record), so the test passed on the crashing reducer.
///
/// The trace is the pantry's session recorded afresh through its force-unwrap, in a child
/// process that traps at step 3 (`mutant-replay-host record`). Its committed tests:
/// `Tests/GeneratedTests/Generated/PantryCrashTrace*.swift` against the fixed reducer, and
/// `Mutants/Pantry*CrashReplay.swift` (plain) against both. Rewrite them with
/// `RECORD_GENERATED_TESTS=1 swift test --filter CrashTraceGenerationTests`.
@MainActor
@Suite("Generated tests of a trace that ends in a crash")
struct CrashTraceGenerationTests {
  static let host = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("mutant-replay-host").path

  /// The committed files, and the options each is generated with.
  static let outputs: [(path: String, options: TestGenerator.Options)] = {
    var outputs: [(String, TestGenerator.Options)] = []
    for (framework, name, reducer, directory) in [
      (
        TestGenerator.Framework.swiftTesting, "PantryCrashTraceTests", "PantryFeature",
        "Tests/GeneratedTests/Generated"
      ),
      (.xctest, "PantryCrashTraceXCTests", "PantryFeature", "Tests/GeneratedTests/Generated"),
      (.plain, "PantryForceUnwrapCrashReplay", "PantryForceUnwrap", "Tests/TestGenerationTests/Mutants"),
      (.plain, "PantryFeatureCrashReplay", "PantryFeature", "Tests/TestGenerationTests/Mutants"),
    ] {
      var options = TestGenerator.Options()
      options.framework = framework
      options.typeName = name
      options.reducer = reducer
      options.typeCheck = .decoding(PantryFeature.State.self, PantryFeature.Action.self)
      outputs.append(("\(directory)/\(name).swift", options))
    }
    return outputs
  }()

  /// Records the pantry through its force-unwrap, in a child that traps at step 3.
  static func recordCrash() throws -> String {
    let directory = Scratch.url("pantry-crash")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("pantry-crash.ndjson").path
    let child = try ChildProcess.run(host, ["record", "pantry-force-unwrap", path])
    #expect(child.signal != nil, "the recording did not crash: \(child.status)")
    return path
  }

  @Test("a fresh crash recording gives the committed tests, which end with the crashing step")
  func writesTheCrashingStep() throws {
    let path = try Self.recordCrash()
    defer { try? FileManager.default.removeItem(atPath: path) }
    for output in Self.outputs {
      let test = try TestGenerator(options: output.options).generate(tracePath: path)
      #expect(test.functions.map(\.steps) == [0...2, 3...3])
      #expect(test.functions.map(\.kind) == [.steps, .crash])
      #expect(test.source.contains("await store.send(.used(\"saffron\"))"))
      let url = GeneratedFile.url(output.path)
      if GeneratedFilesDriftTests.isRecording {
        try test.source.write(to: url, atomically: true, encoding: .utf8)
        continue
      }
      #expect(
        try String(contentsOf: url, encoding: .utf8) == test.source,
        """
        \(output.path) is not what gen-test writes today from a fresh recording; rewrite it \
        with RECORD_GENERATED_TESTS=1 swift test --filter CrashTraceGenerationTests
        """
      )
    }
  }

  @Test("the crashing step's test fails while the reducer still crashes there (it ends its process)")
  func failsWhileTheReducerCrashes() async {
    await #expect(processExitsWith: .failure) {
      try await PantryForceUnwrapCrashReplay().crashAtStep3()
    }
  }

  @Test("it passes once the reducer no longer crashes, as do the steps before it")
  func passesOnceFixed() async {
    var thrown: (any Error)?
    let issues = await withIssueCapture {
      do {
        try await PantryFeatureCrashReplay().crashAtStep3()
        for function in PantryFeatureCrashReplay.all { try await function.run(.init()) }
      } catch {
        thrown = error
      }
    }
    #expect(issues.map(\.description) == [])
    #expect(thrown == nil)
  }
}
