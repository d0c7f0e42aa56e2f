import Recorder

#if canImport(Glibc)
  import Glibc
#endif

// Parses the command line, dispatches, prints and exits; the work lives in the commands.

let arguments = Array(CommandLine.arguments.dropFirst())
let context = CommandContext(
  output: .output, errors: .error, style: .forStandardOutput()
)
let status = Tool.run(arguments, context: context)
exit(status.rawValue)
