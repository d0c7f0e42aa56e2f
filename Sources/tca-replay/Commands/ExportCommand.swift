import Recorder

/// `tca-replay export`: the trace in a form other tools read.
enum ExportCommand: Command {
  static let name = "export"
  static let abstract = "The trace in a form other tools read (plain RFC 6902 patches)."
  static let usage = "USAGE: tca-replay export <trace> --format <format>"
  static let help = """
    OVERVIEW: Write the trace to standard output in a form other tools read.

    \(usage)

    ARGUMENTS:
      <trace>             A trace file, as written by Reducer.recording(to:).

    OPTIONS:
      --format <format>   json-patch: the trace, line for line, with every patch in plain
                          RFC 6902: each 'splice' (tca-replay's change inside a long string)
                          becomes a 'test' and 'replace' of the whole string.
    """
  static let options: [OptionSpec] = [.value("--format")]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    try arguments.requirePositionals(["<trace>"])
    let format = arguments.value("--format") ?? ""
    // Opening checks the trace, and its errors carry the exit codes of every command.
    let path = arguments.positionals[0]
    _ = try context.openTrace(path)
    switch format {
    case "json-patch":
      try PlainJSONPatchExport.export(path: path) { context.output.writeJSON($0 + "\n") }
    default:
      throw UsageError(message: "unknown format '\(format)'; expected json-patch")
    }
    return .success
  }
}
