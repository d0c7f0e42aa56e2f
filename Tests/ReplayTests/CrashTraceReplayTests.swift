import Foundation
import Recorder
import ReplayMutants
import Testing
import TraceJSON

/// A trace that ends in a crash replays its crash: `verify` and `bisect` send the crashing
/// step's action again, through a replay host that dies of it while the bug is there. Before,
/// the step, which has no step record, was never replayed, and such a trace verified "ok".
///
/// Each test records the pantry afresh through its force-unwrap, in a child process that traps
/// at step 3 (`mutant-replay-host record`), and replays it through a host that still crashes
/// (`pantry-force-unwrap`) or one that no longer does (`unchanged`).
@Suite("A trace that ends in a crash replays its crash")
struct CrashTraceReplayTests {
  static let crashingHost = CrashReplayTests.crashingHost
  static let fixedHost = CrashReplayTests.unchangedHost

  /// Records the pantry through its force-unwrap, which traps at step 3; returns the trace.
  static func recordCrash() async throws -> String {
    let path = Paths.temporary("pantry-crash.ndjson")
    let run = try await Run.run("mutant-replay-host", ["record", "pantry-force-unwrap", path])
    #expect([SIGILL, SIGTRAP].contains(run.status), "the recording did not trap: \(run.errors)")
    let last = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").last
    #expect(last?.hasPrefix(#"{"kind":"crash","step":3,"#) == true, "\(last ?? "")")
    return path
  }

  @Test("verify: a step that still crashes is a failure at that step, exit 1")
  func verifyStillCrashes() async throws {
    let trace = try await Self.recordCrash()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try await Run.tool("verify", trace, "--host", Self.crashingHost)
    #expect(run.status == 1, "\(run.output)\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(
      lines.first?.hasPrefix(
        "diverges     \(trace): step 3 .used(\"saffron\") still crashes the reducer, as when "
          + "recorded (signal ") == true,
      "\(run.output)")
    #expect(lines.first?.hasSuffix(CrashReplayTests.reason + ")") == true, "\(run.output)")
    #expect(lines.last == "1 trace: 0 ok, 1 diverge, 0 cannot be tested")
    _ = try CrashReplayTests.log(named: run.errors)
  }

  @Test(
    "bisect: the crashing step is the divergence, with the crash, in both modes",
    arguments: ReplayMode.allCases)
  func bisectStillCrashes(mode: ReplayMode) async throws {
    let trace = try await Self.recordCrash()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try await Run.tool(
      "bisect", trace, "--host", Self.crashingHost, "--mode", mode.rawValue, "--json")
    #expect(run.status == 1, "\(run.output)\(run.errors)")
    let report = try JSONValueDecoder().decode(
      ReplayReport.self, from: JSONValue(parsing: Array(run.output.utf8)))
    #expect(report.firstDivergence?.step == 3)
    #expect(report.firstDivergence?.reason == .crashed)
    #expect(report.firstDivergence?.label == ".used(\"saffron\")")
    #expect(report.recordedCrash?.outcome == .crashes)
    _ = try CrashReplayTests.log(named: run.errors)
  }

  @Test("verify: a step that no longer crashes is ok, exit 0, and a note says so")
  func verifyNoLongerCrashes() async throws {
    let trace = try await Self.recordCrash()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try await Run.tool("verify", trace, "--host", Self.fixedHost)
    #expect(run.status == 0, "\(run.output)\(run.errors)")
    #expect(
      run.output == """
        ok           \(trace): 3 steps replay (step 3, which crashed the recording, no longer \
        crashes)
        1 trace: 1 ok, 0 diverge, 0 cannot be tested

        """)
    let signal = try #require(run.errors.firstMatch(of: /\((SIG[A-Z]+)\)/)?.1)
    #expect(
      run.errors == """
        note: \(trace): step 3 (.used("saffron")), which crashed the recording (\(signal)), no \
        longer crashes

        """)
  }

  @Test(
    "bisect: a step that no longer crashes is reported as such, exit 0, in both modes",
    arguments: ReplayMode.allCases)
  func bisectNoLongerCrashes(mode: ReplayMode) async throws {
    let trace = try await Self.recordCrash()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try await Run.tool(
      "bisect", trace, "--host", Self.fixedHost, "--mode", mode.rawValue)
    #expect(run.status == 0, "\(run.output)\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("\(trace): no divergence (") == true, "\(run.output)")
    #expect(
      lines.dropFirst().first?.hasPrefix(
        "  step 3 (.used(\"saffron\")), which crashed the recording (SIG") == true)
    #expect(lines.dropFirst().first?.hasSuffix("), no longer crashes") == true, "\(run.output)")
  }

  @Test("the library's replay sends the crashing step too, and says it no longer crashes")
  func libraryReplay() async throws {
    let trace = try await Self.recordCrash()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    for mode in ReplayMode.allCases {
      let report = try await replayTrace(trace, PantryFeature(), mode)
      #expect(report.matches)
      #expect(report.replayed == 3)
      #expect(report.recordedCrash?.step == 3)
      #expect(report.recordedCrash?.outcome == .noLongerCrashes, "\(mode)")
    }
  }
}
