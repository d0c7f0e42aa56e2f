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
  /// `view --serve` cannot listen on its port (EX_UNAVAILABLE).
  case cannotServe = 69
  /// An output file that cannot be written (EX_CANTCREAT).
  case cannotCreate = 73
  /// The replay host failed, or a trace could not be checked: `git bisect run` skips the commit.
  case cannotTest = 125
}

extension ExitStatus {
  /// The exit for a host's `error` answer, by its problem: a missing or malformed trace is
  /// the trace's fault, anything else the host's.
  init(refusal problem: String) {
    switch problem {
    case "missingTrace": self = .missingInput
    case "malformedTrace": self = .badData
    default: self = .cannotTest
    }
  }
}

/// What a command runs with: where to write, and how to decorate it.
struct CommandContext {
  var output: StandardStream
  var errors: StandardStream
  var style: Style

  /// Writes a warning to standard error in the tool's one form, `file:line: warning: message`
  /// (``warningLine(_:file:line:)``).
  func warn(_ message: String, file: String? = nil, line: Int? = nil) {
    errors.write(warningLine(message, file: file, line: line) + "\n")
  }

  /// Opens and indexes a trace, passing on a warning about a torn last line.
  ///
  /// A `checked` trace is also read whole, as `summary` reads it, so that a command that needs
  /// only a few of its lines still refuses a trace with a problem anywhere, naming the same line.
  func openTrace(_ path: String, checked: Bool = true) throws(TraceReadError) -> TraceIndex {
    let trace = try TraceIndex(path: path)
    if let warning = trace.warning { errors.write(warning + "\n") }
    if checked, let problem = CheckedTraceReader.firstProblem(in: path) { throw problem }
    return trace
  }
}

/// A subcommand of `tca-replay`: it declares its arguments once, and its usage and help are
/// laid out from them (``Help``).
protocol Command: Sendable {
  static var name: String { get }
  /// One line for the tool's command list.
  static var abstract: String { get }
  /// The help's opening, after `OVERVIEW: `, as prose wrapped by hand.
  static var overview: String { get }
  static var positionals: [Positional] { get }
  /// In the order usage and help list them.
  static var options: [any CommandOption] { get }
  /// The help's close, after the options: notes, exit codes, examples; empty for none.
  static var discussion: String { get }
  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus
}

extension Command {
  static var options: [any CommandOption] { [] }
  static var discussion: String { "" }
  static var usage: String { Help.usage(self) }
  static var help: String { Help.text(self) }
}

/// The `tca-replay` command-line tool.
enum Tool {
  static let commands: [any Command.Type] = [
    SummaryCommand.self, LogCommand.self, StateCommand.self, ShowCommand.self,
    DiffCommand.self, StepCommand.self, GenTestCommand.self, BisectCommand.self,
    BlameCommand.self, VerifyCommand.self, ShrinkCommand.self, CompareCommand.self, SearchCommand.self, ViewCommand.self,
    ExportCommand.self,
  ]

  static var usage: String {
    let list = commands.map { "  " + pad($0.name, toWidth: 10) + $0.abstract }
    return """
      OVERVIEW: A record/replay debugger for apps built in the Composable Architecture style.

      USAGE: tca-replay <command> <trace> [options]

      COMMANDS:
      \(list.joined(separator: "\n"))

      OPTIONS:
        -h, --help  Show help for the tool or a command ('tca-replay help <command>' too).
        --version   Show the tool's version.

      STEPS are numbered from 0, as in the trace. Where a command takes a step, 'initial'
      means the state before step 0 and 'last' the last step.

      EXIT CODES:
        0 success, 1 divergence or difference (bisect, verify, compare), 64 bad arguments,
        65 malformed trace, 66 missing or unreadable trace, 69 cannot serve (view --serve),
        73 output file cannot be written, 125 cannot test: the replay host failed (bisect,
        blame, verify).

      See 'tca-replay <command> --help' for more.
      """
  }

  static func run(_ arguments: [String], context: CommandContext) -> ExitStatus {
    guard let name = arguments.first else {
      context.errors.write(usage + "\n")
      return .usage
    }
    if name == "--version" {
      context.output.write("tca-replay \(toolVersion)\n")
      return .success
    }
    // `help log` is `log --help`, as in git and swift.
    let topic = name == "help" ? arguments.dropFirst().first : nil
    if ["-h", "--help", "help"].contains(name), topic == nil {
      context.output.write(usage + "\n")
      return .success
    }
    guard let command = commands.first(where: { $0.name == (topic ?? name) }) else {
      let error = Suggestion.message(
        "unknown command '\(topic ?? name)'", for: topic ?? name, in: commands.map { $0.name })
      context.errors.write("Error: \(error.escapingControlCharacters)\n\n\(usage)\n")
      return .usage
    }
    if topic != nil {
      context.output.write(command.help + "\n")
      return .success
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("-h") || rest.contains("--help") {
      context.output.write(command.help + "\n")
      return .success
    }
    do {
      let parsed = try Arguments(parsing: rest, for: command)
      return try command.run(parsed, context)
    } catch let error as UsageError {
      context.errors.write(
        "Error: \(error.message.escapingControlCharacters)\n\(command.usage)\n"
          + "See 'tca-replay \(command.name) --help'.\n"
      )
      return .usage
    } catch let error as TraceReadError {
      // The first problem in the file, whichever part of it this command read.
      let error = error.firstInTrace()
      // One line, whatever the trace's text in it holds.
      context.errors.write("Error: \(error.description.escapingControlCharacters)\n")
      return error.kind == .missing ? .missingInput : .badData
    } catch {
      context.errors.write("Error: \(String(describing: error).escapingControlCharacters)\n")
      return .badData
    }
  }
}
