import Foundation
import Recorder
import ReplayMutants
import Testing
import TraceJSON

/// `tca-replay bisect`, `verify` and `compare`, run as built binaries with real replay hosts.
@Suite("tca-replay bisect, verify and compare")
struct ToolReplayTests {
  static let exampleHost = Paths.executable("example-replay-host")

  static func mutantHost(_ mutant: Mutant) -> String {
    "\(Paths.executable("mutant-replay-host")) \(mutant.rawValue)"
  }

  @Test(
    "bisect through a host catches each deliberate change at exactly the right step and paths, and exits 1",
    arguments: Mutant.behavioural, ReplayMode.allCases
  )
  func bisectCatchesMutants(mutant: Mutant, mode: ReplayMode) async throws {
    let expected = try mutant.expectedDivergences()
    let run = try await Run.tool(
      "bisect", "Traces/\(mutant.traceName)", "--host", Self.mutantHost(mutant),
      "--mode", mode.rawValue, "--json"
    )
    #expect(run.status == 1, "\(run.errors)")
    let report = try JSONValueDecoder().decode(
      ReplayReport.self, from: JSONValue(parsing: Array(run.output.utf8))
    )
    let divergence = try #require(report.firstDivergence)
    #expect(divergence.step == expected.steps[0])
    #expect(Set(divergence.differences.map(\.path.description)) == Set(expected.paths))
    #expect(report.mode == mode)
  }

  @Test("bisect --all details every divergent step in text, not only the first")
  func bisectAllText() async throws {
    let run = try await Run.tool(
      "bisect", "Traces/counter.ndjson", "--host", Self.mutantHost(.factFailureAsFact), "--all"
    )
    #expect(run.status == 1, "\(run.errors)")
    #expect(run.output.contains("step 77 diverges from the recording"))
    for step in [158, 241] {
      #expect(run.output.contains("step \(step) also diverges\n  action  .factRequestFailed("))
    }
    #expect(!run.output.contains("more steps diverge"))
  }

  @Test("bisect prints the step, the action, its origin, the steps before it and the diff")
  func bisectText() async throws {
    let run = try await Run.tool(
      "bisect", "Traces/todos.ndjson", "--host", Self.mutantHost(.savedDateDropped),
      "--context", "3"
    )
    #expect(run.status == 1)
    #expect(
      run.output == """
        Traces/todos.ndjson: step 9 diverges from the recording (isolated replay of 250 steps)
          action  .saved
          origin  effect of step 8
          after
                 6  send              .todo(id: 0000…0000, action: .titleChanged("Buy mi"))
                 7  send              .todo(id: 0000…0000, action: .titleChanged("Buy mil"))
                 8  send              .todo(id: 0000…0000, action: .titleChanged("Buy milk"))
          state   1 difference (expected −, actual +)
            /lastSavedAt
              − 2027-01-15T08:00:01Z
              + (absent)
          36 more steps diverge (bisect --all details them)

        """
    )
  }

  @Test("bisect of an unchanged reducer reports no divergence and exits 0")
  func bisectUnchanged() async throws {
    let run = try await Run.tool("bisect", "Traces/counter.ndjson", "--host", Self.exampleHost)
    #expect(run.status == 0)
    #expect(
      run.output
        == "Traces/counter.ndjson: no divergence (isolated replay of 243 steps, 243 replayed)\n"
    )
  }

  @Test("bisect and verify warn once about an incomplete last line, and replay the rest")
  func incompleteLastLine() async throws {
    let text = try String(
      contentsOfFile: Paths.trace("counter.ndjson"), encoding: .utf8)
    let lines = text.split(separator: "\n")
    let cut = lines.prefix(20).joined(separator: "\n") + "\n" + lines[20].prefix(40)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("cut-\(UUID().uuidString).ndjson").path
    try Data(cut.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    // One form, the compiler's, on standard error: never on standard output, never tagged twice.
    let note = "\(path):21: warning: the last line is incomplete (40 bytes)"

    let bisect = try await Run.tool("bisect", path, "--host", Self.exampleHost)
    #expect(bisect.status == 0, "\(bisect.errors)")
    #expect(bisect.output.contains("no divergence"))
    #expect(!bisect.output.contains("warning"), "\(bisect.output)")
    #expect(bisect.errors.hasPrefix(note), "\(bisect.errors)")
    #expect(bisect.errors.components(separatedBy: "warning").count == 2, "\(bisect.errors)")

    let verify = try await Run.tool("verify", path, "--host", Self.exampleHost)
    #expect(verify.status == 0)
    #expect(verify.errors.hasPrefix(note), "\(verify.errors)")
    #expect(verify.errors.components(separatedBy: "warning").count == 2, "\(verify.errors)")
  }

  @Test("verify names a step record on the first line as not a header, as the other commands do")
  func stepRecordFirst() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("step-first-\(UUID().uuidString).ndjson").path
    try Data(#"{"kind":"step","index":0}"#.utf8 + [0x0A]).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let verify = try await Run.tool("verify", path, "--host", Self.exampleHost)
    #expect(verify.status == 125)
    #expect(verify.output.hasPrefix("cannot test  \(path):1: the first line is not a header record\n"))
  }

  @Test("verify over the Traces folder with the examples' host: every trace replays, exit 0")
  func verifyUnchanged() async throws {
    let run = try await Run.tool("verify", "Traces", "--host", Self.exampleHost)
    #expect(run.status == 0, "\(run.errors)")
    #expect(
      run.output == """
        ok           Traces/bookshelf.ndjson: 356 steps replay
        ok           Traces/composed-app.ndjson: 282 steps replay
        ok           Traces/counter.ndjson: 243 steps replay
        ok           Traces/todos.ndjson: 250 steps replay
        4 traces: 4 ok, 0 diverge, 0 cannot be tested

        """
    )
  }

  @Test("verify with a changed reducer names the diverging trace and exits 1", arguments: Mutant.behavioural)
  func verifyMutant(mutant: Mutant) async throws {
    let expected = try mutant.expectedDivergences()
    let run = try await Run.tool("verify", "Traces", "--host", Self.mutantHost(mutant))
    #expect(run.status == 1)
    let lines = run.output.split(separator: "\n")
    let diverging = lines.filter { $0.hasPrefix("diverges") }
    #expect(diverging.count == 1)
    #expect(diverging.first?.contains("Traces/\(mutant.traceName): step \(expected.steps[0]) ") == true)
    #expect(lines.last == "4 traces: 3 ok, 1 diverge, 0 cannot be tested")
  }

  @Test("a reducer that traps mid-trace: step 77 crashed the reducer, exit 1")
  func hostCrashes() async throws {
    let run = try await Run.tool("verify", "Traces/counter.ndjson", "--host", Self.mutantHost(.crash))
    #expect(run.status == 1)
    #expect(run.output.hasPrefix(
      "diverges     Traces/counter.ndjson: step 77 .factRequestFailed(\"No fact is known abou…\") "
        + "crashed the reducer (signal "
    ), "\(run.output)")
    #expect(run.output.contains(
      "Fatal error: Unexpectedly found nil while unwrapping an Optional value)\n"
    ))
    let note = "note: the replay host's output, with its backtrace, is in "
    #expect(run.errors.hasPrefix(note) && run.errors.split(separator: "\n").count == 1)
    try? FileManager.default.removeItem(atPath: String(run.errors.dropFirst(note.count).dropLast()))
  }

  @Test("verify names the trace each \"recorded by another build\" warning is about")
  func anotherBuildWarningNamesItsTrace() async throws {
    // As if both traces came from another build, like segments recorded with `.lastSteps`.
    let paths = try ["counter.ndjson", "todos.ndjson"].map { name in
      try editedTrace(name) { lines in
        lines[0] = lines[0].replacing(#/"fingerprint":\{"state":"[0-9a-f]+"/#) { _ in
          #""fingerprint":{"state":"0000000000000000""#
        }
      }
    }
    defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
    let run = try await Run.tool(["verify"] + paths + ["--host", Self.exampleHost])
    #expect(run.status == 0, "\(run.errors)")
    let warnings = run.errors.split(separator: "\n")
    #expect(warnings.count == 2, "\(run.errors)")
    for (warning, path) in zip(warnings, paths) {
      #expect(
        warning.hasPrefix("\(path): warning: the trace's fingerprint (state 0000000000000000"))
      #expect(warning.contains("it was recorded by another build"))
    }
  }

  @Test("a host that hangs is stopped after the timeout: one clear line and exit 125")
  func hostHangs() async throws {
    // Long enough for a debug host to start on a loaded machine; it hangs on its first step.
    let run = try await Run.tool(
      "verify", "Traces/counter.ndjson", "--host", Self.mutantHost(.hang), "--timeout", "5"
    )
    #expect(run.status == 125)
    #expect(
      run.errors == """
        Error: the replay host '\(Self.mutantHost(.hang))' said nothing for 5 s while tca-replay \
        waited for its report on Traces/counter.ndjson; stopped it (raise --timeout if the host \
        is just slow)

        """
    )
  }

  @Test(
    "a slow host that works is kept alive by its progress, however long a chunk of steps takes",
    arguments: ["isolated", "cumulative"])
  func slowHost(mode: String) async throws {
    // 243 steps of 40 ms: about 9.7 s of reducing, which one replay thread may do alone.
    // Silent, the host is stopped after 9 s; heard after each step, it answers within the
    // whole-request bound (18.6 s), which leaves a loaded machine 9 s for the rest of the work
    // (with 6 s, a loaded 2-core machine once took longer than its 12.4 s).
    let run = try await Run.tool(
      "bisect", "Traces/counter.ndjson", "--host", Self.mutantHost(.slow), "--timeout", "9",
      "--mode", mode
    )
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.errors == "")
  }

  @Test("a host that speaks nonsense, or is not there, gets one clear line and exit 125")
  func hostNonsense() async throws {
    let nonsense = try await Run.tool("verify", "Traces", "--host", "echo hello world")
    #expect(nonsense.status == 125)
    #expect(
      nonsense.errors == """
        Error: the replay host 'echo hello world' does not speak the replay host protocol: \
        expected a JSON object, got "hello world"

        """
    )
    let missing = try await Run.tool("bisect", "Traces/counter.ndjson", "--host", "/nonexistent/host")
    #expect(missing.status == 125)
    // What the shell said is in the host's log, named at the end of the line.
    let said = "Error: the replay host '/nonexistent/host' exited with status 127 while tca-replay "
      + "waited for its hello; its output is in "
    #expect(missing.errors.hasPrefix(said), "\(missing.errors)")
    let log = String(missing.errors.dropFirst(said.count).dropLast())
    #expect(try String(contentsOfFile: log, encoding: .utf8).contains("/nonexistent/host"))
    try? FileManager.default.removeItem(atPath: log)
  }

  @Test("verify cannot test a missing trace (125); bisect reports it as missing input (66)")
  func missingTrace() async throws {
    let verify = try await Run.tool("verify", "Traces/nope.ndjson", "--host", Self.exampleHost)
    #expect(verify.status == 125)
    #expect(verify.output.hasPrefix("cannot test  Traces/nope.ndjson: "))
    let bisect = try await Run.tool("bisect", "Traces/nope.ndjson", "--host", Self.exampleHost)
    #expect(bisect.status == 66)
  }

  @Test("bad arguments: exit 64 with the usage", arguments: [
    ["bisect", "Traces/counter.ndjson"],
    ["bisect", "--host", "x"],
    ["verify", "Traces", "--host", "x", "--timeout", "soon"],
    ["verify", "Traces", "--host", "x", "--timeout", "inf"],
    ["bisect", "Traces/counter.ndjson", "--host", "x", "--timeout", "1e300"],
    ["compare", "Traces/counter.ndjson"],
    ["bisect", "Traces/counter.ndjson", "--host", "x", "--mode", "sideways"],
  ])
  func usage(arguments: [String]) async throws {
    let run = try await Run.run("tca-replay", arguments)
    #expect(run.status == 64)
    #expect(run.errors.hasPrefix("Error: "))
    #expect(run.errors.contains("USAGE: tca-replay \(arguments[0])"))
  }

  @Test("every new command has --help", arguments: ["bisect", "verify", "compare"])
  func help(command: String) async throws {
    let run = try await Run.tool(command, "--help")
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("OVERVIEW: "))
    #expect(run.output.contains("EXIT CODES:"))
  }
}
