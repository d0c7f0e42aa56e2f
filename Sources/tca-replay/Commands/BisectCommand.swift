import Recorder

/// `tca-replay bisect`: where does today's reducer first diverge from a recording?
enum BisectCommand {
  static let name = "bisect"
  static let usage =
    "USAGE: tca-replay bisect <trace> --host <command> [--mode isolated|cumulative] [--all] "
    + "[--context <n>] [--timeout <seconds>] [--json]"
  static let help = """
    OVERVIEW: Replay a trace's actions through today's reducer, with the dependency values
    they read when recorded, and report the first step whose state differs from the
    recording: the step, its action and origin, the steps before it, and the expected and
    actual values at each differing JSON path. Effects are not run; the actions they sent are
    replayed from the trace, in order.

    \(usage)

    ARGUMENTS:
      <trace>               A trace file, as written by Reducer.recording(to:).

    OPTIONS:
      --host <command>      The replay host to run the reducer in: an executable whose
                            main.swift is `ReplayHost.run(MyFeature())`, run with /bin/sh -c.
      --mode <mode>         isolated (default): every step from its recorded state, on every
                            core, counting every divergent step. cumulative: one run from the
                            initial state, as the user experienced it.
      --all                 Detail every divergent step, not just the first.
      --context <n>         How many steps before a divergence to list (default 5).
      --timeout <seconds>   How long the host may stay silent (default 30).
      --json                Print the report as JSON (Documentation/ReplayHostProtocol.md).

    EXIT CODES:
      0 no divergence, 1 diverges, 64 bad arguments, 65 malformed trace, 66 missing trace,
      125 the host failed (did not start, crashed, hung, or spoke nonsense).
    """

  static func run(_ arguments: [String], output: StandardStream, errors: StandardStream)
    -> ExitStatus
  {
    let parsed: CommandArguments
    let timeout: Duration
    let context: Int
    let mode: ReplayMode
    do throws(CommandArguments.Problem) {
      parsed = try CommandArguments(
        arguments, options: ["--host", "--mode", "--context", "--timeout"],
        flags: ["--all", "--json"]
      )
      timeout = try parsed.seconds("--timeout", default: 30)
      context = try parsed.count("--context", default: 5)
      guard let value = ReplayMode(rawValue: parsed.values["--mode"] ?? "isolated") else {
        throw .init(message: "'--mode' is isolated or cumulative, not '\(parsed.values["--mode"]!)'")
      }
      mode = value
      guard parsed.positionals.count == 1 else {
        throw .init(
          message: parsed.positionals.isEmpty
            ? "missing <trace>" : "expected one trace, got \(parsed.positionals.count)"
        )
      }
      guard parsed.values["--host"] != nil else { throw .init(message: "missing --host <command>") }
    } catch {
      return usageError(error.message, usage: usage, command: name, errors: errors)
    }
    let path = parsed.positionals[0]

    let host: HostProcess
    let answer: HostProcess.Answer
    do throws(HostError) {
      host = try HostProcess(command: parsed.values["--host"]!, timeout: timeout)
      answer = try host.replay(
        path: path, mode: mode,
        maximumDivergences: parsed.flags.contains("--all") ? 1_000_000 : 1,
        precedingSteps: context
      )
    } catch {
      errors.write("Error: \(error)\n")
      return .cannotTest
    }
    host.stop()
    switch answer {
    case let .refused(problem, message):
      errors.write("Error: \(message)\n")
      switch problem {
      case "missingTrace": return .missingInput
      case "malformedTrace": return .badData
      default: return .cannotTest
      }
    case let .report(report):
      if parsed.flags.contains("--json") {
        output.write(((try? JSONValueEncoder().encode(report))?.jsonString ?? "{}") + "\n")
      } else {
        output.write(report.description + "\n")
      }
      return report.matches ? .success : .diverges
    }
  }
}
