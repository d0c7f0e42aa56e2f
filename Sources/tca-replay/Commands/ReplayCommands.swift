/// Dispatches the commands that replay or compare traces: `bisect`, `verify`, `compare`.
func runReplayCommand(
  _ command: String, _ arguments: [String], output: StandardStream, errors: StandardStream
) -> ExitStatus {
  let help: String
  let run: ([String], StandardStream, StandardStream) -> ExitStatus
  switch command {
  case "bisect": (help, run) = (BisectCommand.help, BisectCommand.run)
  case "verify": (help, run) = (VerifyCommand.help, VerifyCommand.run)
  default: (help, run) = (CompareCommand.help, CompareCommand.run)
  }
  if arguments.contains("-h") || arguments.contains("--help") {
    output.write(help + "\n")
    return .success
  }
  return run(arguments, output, errors)
}
