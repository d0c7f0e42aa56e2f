import Recorder

/// The exit codes of `tca-replay`, a contract for scripts.
enum ExitStatus: Int32 {
  /// Success.
  case success = 0
  /// Replay found a divergence, or two traces differ (the `diff` and `git bisect` convention).
  case diverges = 1
  /// Bad arguments (EX_USAGE).
  case usage = 64
  /// A trace that does not follow the format (EX_DATAERR).
  case badData = 65
  /// A trace that does not exist or cannot be read (EX_NOINPUT).
  case missingInput = 66
  /// The replay host failed, or a trace could not be checked: `git bisect run` skips the commit.
  case cannotTest = 125
}

/// The `tca-replay` command-line tool.
enum Tool {
  static let usage = """
    OVERVIEW: A record/replay debugger for apps built in the Composable Architecture style.

    USAGE: tca-replay <command> <trace> [options]

    COMMANDS:
      summary <trace>     Types, steps, duration, origins, effects, redactions, integrity.
      log <trace>         One line per step: index, time, origin and action.
      bisect <trace> --host <command>
                          The first step where today's reducer diverges from the recording.
      verify <traces or folders…> --host <command>
                          Check traces against today's reducer, for CI and `git bisect run`.
      compare <a> <b>     The first step where two traces differ, in action or in state.

    OPTIONS:
      -h, --help          Show help for the tool or a command.

    EXIT CODES:
      0 success, 1 divergence or difference, 64 bad arguments, 65 malformed trace,
      66 missing trace, 125 cannot test (the replay host failed).

    See 'tca-replay <command> --help' for more.
    """

  static func run(_ arguments: [String], output: StandardStream, errors: StandardStream)
    -> ExitStatus
  {
    guard let command = arguments.first else {
      errors.write(usage + "\n")
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "-h", "--help", "help":
      output.write(usage + "\n")
      return .success
    case "summary":
      return runCommand(SummaryCommand.self, rest, output: output, errors: errors)
    case "log":
      return runCommand(LogCommand.self, rest, output: output, errors: errors)
    case "bisect", "verify", "compare":
      return runReplayCommand(command, rest, output: output, errors: errors)
    default:
      errors.write("Error: unknown command '\(command)'\n\n\(usage)\n")
      return .usage
    }
  }

  private static func runCommand<Command: TraceCommand>(
    _ command: Command.Type,
    _ arguments: [String],
    output: StandardStream,
    errors: StandardStream
  ) -> ExitStatus {
    if arguments.contains("-h") || arguments.contains("--help") {
      output.write(Command.help + "\n")
      return .success
    }
    let paths = arguments.filter { !$0.hasPrefix("-") }
    let unknown = arguments.filter { $0.hasPrefix("-") }
    guard paths.count == 1, unknown.isEmpty else {
      let problem =
        unknown.first.map { "unknown option '\($0)'" }
        ?? (paths.isEmpty ? "missing <trace>" : "expected one trace, got \(paths.count)")
      errors.write(
        "Error: \(problem)\n\(Command.usage)\nSee 'tca-replay \(Command.name) --help'.\n"
      )
      return .usage
    }
    do {
      let reader = try TraceReader(path: paths[0])
      try Command.run(reader, output: output)
      if let warning = reader.warning { errors.write(warning + "\n") }
      return .success
    } catch {
      errors.write("Error: \(error)\n")
      return error.kind == .missing ? .missingInput : .badData
    }
  }
}

/// A command that reads one trace.
protocol TraceCommand {
  static var name: String { get }
  static var usage: String { get }
  static var help: String { get }
  static func run(_ reader: TraceReader, output: StandardStream) throws(TraceReadError)
}
