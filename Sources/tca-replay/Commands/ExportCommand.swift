import Foundation
import Recorder

/// `tca-replay export`: writes the trace in another tool's format.
enum ExportCommand: Command {
  static let name = "export"
  static let abstract =
    "Write the trace in another tool's format (chrome-trace for Perfetto, plain JSON Patch)."
  static let overview = "Write the trace in another tool's format."
  static let positionals = [Positional.trace]
  static let format = Option<Format>(
    "--format", value: "<format>",
    help: """
      chrome-trace: Trace Event Format JSON, which ui.perfetto.dev and chrome://tracing open. \
      Steps are slices on a "reducer" track, effects async slices from start to end or cancel, \
      the step whose effect sent an action a flow arrow to it; times in microseconds \
      (Documentation/ChromeTrace.md).
      json-patch: the trace, line for line, with every patch in plain RFC 6902: each 'splice' \
      (tca-replay's change inside a long string) becomes a 'test' and 'replace' of the whole \
      string.
      """,
    required: true
  ) { text, _ throws(UsageError) in
    guard let format = Format(rawValue: text) else {
      let known = Format.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError(message: "unknown format '\(text)': use \(known)")
    }
    return format
  }
  static let output = Option<String>(
    "-o", "--output", value: "<file>", help: "Write there instead of to standard output.")
  static let options: [any CommandOption] = [format, output]

  /// The formats, each in its own file under Export/.
  enum Format: String, CaseIterable, Sendable {
    case chromeTrace = "chrome-trace"
    case jsonPatch = "json-patch"
  }

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let format = arguments[required: Self.format]
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
    guard let output = arguments[Self.output] else {
      context.output.writeJSON(text)
      return .success
    }
    do {
      try PrivateFile.write(text, to: output)
    } catch {
      context.errors.write("Error: cannot write \(output): \(whyUnwritable(output, error))\n")
      return .cannotCreate
    }
    return .success
  }
}
