import Foundation
import Recorder

/// `tca-replay export`: writes the trace in another tool's format.
enum ExportCommand: Command {
  static let name = "export"
  static let abstract =
    "Write the trace in another tool's format (chrome-trace for Perfetto, plain JSON Patch)."
  static let usage = "USAGE: tca-replay export <trace> --format <format> [-o <file>]"
  static let help = """
    OVERVIEW: Write the trace in another tool's format.

    \(usage)

    ARGUMENTS:
      <trace>               A trace file, as written by Reducer.recording(to:).

    OPTIONS:
      --format <format>     chrome-trace: Trace Event Format JSON, which ui.perfetto.dev and
                            chrome://tracing open. Steps are slices on a "reducer" track,
                            effects async slices from start to end or cancel, the step whose
                            effect sent an action a flow arrow to it; times in microseconds
                            (Documentation/ChromeTrace.md).
                            json-patch: the trace, line for line, with every patch in plain
                            RFC 6902: each 'splice' (tca-replay's change inside a long string)
                            becomes a 'test' and 'replace' of the whole string.
      -o, --output <file>   Write there instead of to standard output.
    """
  static let options: [OptionSpec] = [.value("--format"), .value("-o"), .value("--output")]

  /// The formats, each in its own file under Export/.
  enum Format: String, CaseIterable {
    case chromeTrace = "chrome-trace"
    case jsonPatch = "json-patch"
  }

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    try arguments.requirePositionals(["<trace>"])
    let known = Format.allCases.map(\.rawValue).joined(separator: ", ")
    guard let value = arguments.value("--format") else {
      throw UsageError(message: "missing --format: use \(known)")
    }
    guard let format = Format(rawValue: value) else {
      throw UsageError(message: "unknown format '\(value)': use \(known)")
    }
    let tracePath = arguments.positionals[0]
    var text = ""
    switch format {
    case .chromeTrace:
      let timeline = try TraceTimeline(path: tracePath)
      if let warning = timeline.warning { context.errors.write(warning + "\n") }
      text = ChromeTraceExport(timeline: timeline).json.jsonString + "\n"
    case .jsonPatch:
      // Opening checks the trace, and its errors carry the exit codes of every command.
      _ = try context.openTrace(tracePath)
      try PlainJSONPatchExport.export(path: tracePath) { text += $0 + "\n" }
    }
    guard let output = arguments.value("-o") ?? arguments.value("--output") else {
      context.output.writeJSON(text)
      return .success
    }
    do {
      try text.write(toFile: output, atomically: true, encoding: .utf8)
    } catch {
      context.errors.write("Error: cannot write \(output): \(whyUnwritable(output, error))\n")
      return .cannotCreate
    }
    return .success
  }
}
