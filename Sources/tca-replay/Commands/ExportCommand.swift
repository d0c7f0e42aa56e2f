import Foundation
import Recorder

/// `tca-replay export`: writes the trace in another tool's format.
enum ExportCommand: Command {
  static let name = "export"
  static let abstract = "Write the trace in another tool's format (chrome-trace for Perfetto)."
  static let usage = "USAGE: tca-replay export <trace> --format chrome-trace [-o <file>]"
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
      -o, --output <file>   Write there instead of to standard output.
    """
  static let options: [OptionSpec] = [.value("--format"), .value("-o"), .value("--output")]

  /// The formats, each in its own file under Export/.
  enum Format: String, CaseIterable {
    case chromeTrace = "chrome-trace"
  }

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    try arguments.requirePositionals(["<trace>"])
    guard let value = arguments.value("--format") else {
      throw UsageError(message: "missing --format: use chrome-trace")
    }
    guard let format = Format(rawValue: value) else {
      let known = Format.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError(message: "unknown format '\(value)': use \(known)")
    }
    let tracePath = arguments.positionals[0]
    let text: String
    switch format {
    case .chromeTrace:
      let timeline = try TraceTimeline(path: tracePath)
      if let warning = timeline.warning { context.errors.write(warning + "\n") }
      text = ChromeTraceExport(timeline: timeline).json.jsonString + "\n"
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
