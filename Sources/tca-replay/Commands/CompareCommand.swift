import Recorder

/// `tca-replay compare`: the first step where two traces differ. Needs no host.
enum CompareCommand {
  static let name = "compare"
  static let usage = "USAGE: tca-replay compare <a> <b> [--json]"
  static let help = """
    OVERVIEW: Read two traces step by step and report the first step where they differ: in
    the action, its origin, the dependency values read, or the state the step left (at JSON
    path granularity). Times and effect lifecycles are not compared; redacted values are
    unknown, not differences.

    \(usage)

    ARGUMENTS:
      <a> <b>     Two trace files, e.g. the same session recorded before and after a change.

    OPTIONS:
      --json      Print the comparison as JSON.

    EXIT CODES:
      0 the traces agree, 1 they differ, 64 bad arguments, 65 malformed trace, 66 missing trace.
    """

  static func run(_ arguments: [String], output: StandardStream, errors: StandardStream)
    -> ExitStatus
  {
    let parsed: CommandArguments
    do throws(CommandArguments.Problem) {
      parsed = try CommandArguments(arguments, options: [], flags: ["--json"])
      guard parsed.positionals.count == 2 else {
        throw .init(message: "expected two traces, got \(parsed.positionals.count)")
      }
    } catch {
      return usageError(error.message, usage: usage, command: name, errors: errors)
    }
    do {
      let comparison = try TraceComparison(parsed.positionals[0], parsed.positionals[1])
      if parsed.flags.contains("--json") {
        output.write(((try? JSONValueEncoder().encode(comparison))?.jsonString ?? "{}") + "\n")
      } else {
        output.write(comparison.description + "\n")
      }
      return comparison.firstDifference == nil ? .success : .diverges
    } catch {
      errors.write("Error: \(error)\n")
      return error.trace.kind == .missing ? .missingInput : .badData
    }
  }
}
