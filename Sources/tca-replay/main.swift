#if canImport(Glibc)
  import Glibc
#endif
import Recorder

// Parses the command line, dispatches, prints and exits; the work lives in the commands.

let arguments = Array(CommandLine.arguments.dropFirst())
let status = Tool.run(arguments, output: StandardStream.output, errors: StandardStream.error)
exit(status.rawValue)
