import Foundation
import Recorder
import ReplayMutants
import Testing
import TraceJSON

/// A reducer that traps while replaying is the worst regression there is: `bisect` and `verify`
/// report it at its step, exit 1, and keep the backtrace out of the terminal.
@Suite("A reducer that crashes during replay is a divergence at its step")
struct CrashReplayTests {
  static let crashingHost = "\(Paths.executable("mutant-replay-host")) pantry-force-unwrap"
  static let unchangedHost = "\(Paths.executable("mutant-replay-host")) unchanged"
  /// Swift's message for the pantry's force-unwrap of a missing item.
  static let reason = "Fatal error: Unexpectedly found nil while unwrapping an Optional value"

  /// Records ``PantryFeature/session`` with today's pantry, which handles a missing item.
  static func recordPantry(to path: String = Paths.temporary("pantry.ndjson")) throws -> String {
    let recorder = try TraceRecorder(path: path)
    let reducer = PantryFeature().recording(to: recorder)
    var state = PantryFeature.State()
    for action in PantryFeature.session { _ = reducer.reduce(into: &state, action: action) }
    try recorder.close()
    return path
  }

  /// The log named by the tool's note, read and then deleted.
  static func log(named errors: String) throws -> String {
    let prefix = "note: the replay host's output, with its backtrace, is in "
    let line = try #require(errors.split(separator: "\n").first { $0.hasPrefix(prefix) })
    let path = String(line.dropFirst(prefix.count))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test(
    "bisect names the step a force-unwrap traps at, its action, the signal and the reason, and exits 1",
    arguments: ReplayMode.allCases
  )
  func bisectLocatesTheCrash(mode: ReplayMode) async throws {
    let trace = try Self.recordPantry()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try await Run.tool(
      "bisect", trace, "--host", Self.crashingHost, "--mode", mode.rawValue, "--context", "2"
    )
    #expect(run.status == 1, "\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("\(trace): step 3 crashed the reducer (") == true, "\(run.output)")
    #expect(
      Array(lines.dropFirst().prefix(5)) == [
        "  action  .used(\"saffron\")",
        "  origin  send",
        "  after",
        "         1  send              .used(\"flour\")",
        "         2  send              .used(\"flour\")",
      ],
      "\(run.output)"
    )
    // SIGILL on x86-64, SIGTRAP on arm64.
    #expect(lines.contains { $0.hasPrefix("  crash   signal ") && $0.hasSuffix("a Swift runtime trap)") })
    #expect(
      lines.contains { $0.hasPrefix("    ReplayMutants/Pantry.swift:") && $0.hasSuffix(Self.reason) },
      "\(run.output)")
    // The backtrace is in the log the note names, not in the terminal.
    #expect(run.errors.split(separator: "\n").count == 1, "\(run.errors)")
    #expect(try Self.log(named: run.errors).contains(Self.reason))
  }

  @Test(
    "bisect names the first step to crash, though isolated threads crash later steps first",
    arguments: ReplayMode.allCases
  )
  func bisectNamesTheFirstCrash(mode: ReplayMode) async throws {
    // Steps 77, 158 and 241 crash; keyframes every 100 steps give the threads 158 and 241 too.
    let host = "\(Paths.executable("mutant-replay-host")) crash"
    let run = try await Run.tool(
      "bisect", "Traces/counter.ndjson", "--host", host, "--mode", mode.rawValue, "--json"
    )
    #expect(run.status == 1, "\(run.errors)")
    let report = try JSONValueDecoder().decode(
      ReplayReport.self, from: JSONValue(parsing: Array(run.output.utf8))
    )
    #expect(report.firstDivergence?.step == 77)
    #expect(report.firstDivergence?.reason == .crashed)
    _ = try Self.log(named: run.errors)
  }

  @Test("bisect --json reports the crash as a divergence whose reason is crashed, with its signal")
  func bisectJSON() async throws {
    let trace = try Self.recordPantry()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try await Run.tool("bisect", trace, "--host", Self.crashingHost, "--json")
    #expect(run.status == 1, "\(run.errors)")
    let report = try JSONValueDecoder().decode(
      ReplayReport.self, from: JSONValue(parsing: Array(run.output.utf8))
    )
    let divergence = try #require(report.firstDivergence)
    #expect(divergence.step == 3)
    #expect(divergence.reason == .crashed)
    #expect([Int(SIGILL), Int(SIGTRAP)].contains(divergence.signal ?? 0))
    #expect(divergence.message?.hasSuffix(Self.reason) == true)
    #expect(report.divergentSteps == 1 && report.steps == PantryFeature.session.count)
    _ = try Self.log(named: run.errors)
  }

  @Test("verify says which step crashed, exits 1, and replays the next trace in a new host")
  func verifyLocatesTheCrash() async throws {
    let trace = try Self.recordPantry()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let run = try await Run.tool(
      "verify", trace, "Traces/counter.ndjson", "--host", Self.crashingHost
    )
    #expect(run.status == 1, "\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(run.output)")
    let crashed = "diverges     \(trace): step 3 .used(\"saffron\") crashed the reducer (signal "
    #expect(lines.first?.hasPrefix(crashed) == true, "\(run.output)")
    #expect(lines.first?.hasSuffix(Self.reason + ")") == true, "\(run.output)")
    #expect(lines.dropFirst().first?.hasPrefix("ok           Traces/counter.ndjson: ") == true)
    #expect(lines.last == "2 traces: 1 ok, 1 diverge, 0 cannot be tested")
    _ = try Self.log(named: run.errors)
  }

  @Test("with Swift's backtracer on, the backtrace goes to --host-log, not to the terminal")
  func backtraceGoesToTheLog() async throws {
    let trace = try Self.recordPantry()
    let log = Paths.temporary("host.log")
    defer {
      try? FileManager.default.removeItem(atPath: trace)
      try? FileManager.default.removeItem(atPath: log)
    }
    let run = try await offPool {
      try Run(
        "tca-replay", ["verify", trace, "--host", Self.crashingHost, "--host-log", log],
        backtraces: true
      )
    }
    #expect(run.status == 1, "\(run.errors)")
    #expect(run.errors == "note: the replay host's output, with its backtrace, is in \(log)\n")
    let written = try String(contentsOfFile: log, encoding: .utf8)
    #expect(written.contains(Self.reason))
    #expect(written.contains("Program crashed"), "\(written)")
  }

  @Test("git bisect run tca-replay verify finds the commit that introduced a crash")
  func gitBisectFindsTheCrash() async throws {
    let folder = Paths.temporary("bisect")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = try Self.recordPantry(to: folder + "/pantry.ndjson")
    // Each commit's host.sh stands for that commit's build of the replay host.
    let script = """
      set -e
      git init -q
      git config user.name Test
      git config user.email test@example.com
      commit() { git add -A; git commit -qm "$1"; }
      echo 'exec \(Self.unchangedHost)' > host.sh; commit "pantry, its host and a session"
      echo one > README; commit "README"
      echo 'exec \(Self.unchangedHost) # stocked counts' > host.sh; commit "pantry: comments"
      echo 'exec \(Self.crashingHost)' > host.sh; commit "pantry: assume what is used is stocked"
      crash=$(git rev-parse HEAD)
      echo two >> README; commit "README: more"
      echo three >> README; commit "README: even more"
      mkdir .logs; export TMPDIR="$PWD/.logs"  # the crashed hosts' logs, removed with the folder
      git bisect start HEAD HEAD~5 >/dev/null
      git bisect run '\(Paths.executable("tca-replay"))' verify pantry.ndjson --host 'sh host.sh'
      echo; echo "crash commit: $crash"
      """
    let run = try await offPool { try Run("/bin/sh", ["-c", script], in: folder) }
    #expect(run.status == 0, "\(run.output)\n\(run.errors)")
    let crash = try #require(
      run.output.split(separator: "\n").last { $0.hasPrefix("crash commit: ") }
    ).dropFirst("crash commit: ".count)
    #expect(run.output.contains("\(crash) is the first bad commit"), "\(run.output)")
    #expect(run.output.contains("step 3 .used(\"saffron\") crashed the reducer"), "\(run.output)")
    #expect(!run.output.contains("skip"), "\(run.output)")
  }
}
