import Foundation
import Recorder

/// `tca-replay view`: writes the trace as one self-contained HTML page.
enum ViewCommand: Command {
  static let name = "view"
  static let abstract =
    "Explore the trace in a browser: a self-contained HTML page, or served live (--serve)."
  static let overview = """
    Write the trace as one HTML file that opens offline in a browser (file://): a
    timeline of steps, effects and causes, the action list with filters, the state at each
    step as a tree with the step's changes marked, the diff of two steps, search through
    history, and the history of any node. Keys: j/k or arrows step, [ and ] step by 10,
    Home/End, / to search. A link ending in #step=123 opens step 123.
    """
  static let positionals = [Positional.trace]
  static let output = Option<String>(
    "-o", "--output", value: "<file>",
    help: "Where to write the page (default: the trace's name with .html, in the current "
      + "directory).")
  static let steps = Option<ClosedRange<Int>>.stepRange(
    "--steps", value: "<range>",
    help: "Only the steps in this range (e.g. 2000...2999); the page starts from the state "
      + "before the first. For traces over the size limit.")
  static let options: [any CommandOption] =
    [output, steps, serve, port] + HostSettings.options(required: false)
  static let discussion = """
    The page embeds the trace: 10,000 steps among 1,000 todos make a 4.5 MB page that
    Chromium opens in about half a second. A page over \(maximumEmbeddedBytes / 1_000_000) MB of trace is
    refused (exit 65): view a window of steps with --steps instead.

    With --serve, the page follows a recording in progress (Documentation/LiveViewer.md):
      tca-replay view session.ndjson --serve --port 8123
    It listens on 127.0.0.1 only and answers only its URL's token; exit 69 when it cannot
    listen. With --host as well, the page asks today's reducer what if a step were skipped,
    edited or preceded by another action, as the stepper's skip, edit and insert do, and
    offers the new history as a trace.
    """

  /// The most trace JSON a page embeds: some 30 times the 4.5 MB page measured in the README.
  static let maximumEmbeddedBytes = 128_000_000

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    if arguments[Self.serve] {
      if arguments[Self.output] != nil || arguments[Self.steps] != nil {
        throw UsageError(message: "'-o' and '--steps' cannot be used with '--serve'")
      }
      return try runServer(arguments, context)
    }
    if arguments[Self.port] != nil {
      throw UsageError(message: "'--port' needs '--serve'")
    }
    for option in HostSettings.options(required: false) where arguments.contains(option) {
      throw UsageError(message: "'\(option.key)' needs '--serve'")
    }
    let tracePath = arguments.positionals[0]
    let output = arguments[Self.output] ?? defaultOutput(tracePath)
    let timeline = try TraceTimeline(path: tracePath, window: arguments[steps])
    if let warning = timeline.warning { context.errors.write(warning + "\n") }
    let document = ViewerDocument(timeline)
    let data = document.scriptText
    if let problem = sizeProblem(tracePath, bytes: data.utf8.count, limit: maximumEmbeddedBytes) {
      context.errors.write("Error: \(problem)\n")
      return .badData
    }
    let title = String(tracePath.split(separator: "/").last ?? "trace")
    let page = ViewerPage.html(document, title: title)
    do {
      try PrivateFile.write(page, to: output)
    } catch {
      context.errors.write("Error: cannot write \(output): \(whyUnwritable(output, error))\n")
      return .cannotCreate
    }
    context.errors.write(
      "Wrote \(output) (\(counted(timeline.steps.count, "step")), \(page.utf8.count / 1_000) KB)\n")
    return .success
  }

  /// Why a page embedding `bytes` of trace is refused, or `nil` when it is within `limit`.
  static func sizeProblem(_ tracePath: String, bytes: Int, limit: Int) -> String? {
    guard bytes > limit else { return nil }
    return "\(tracePath): the page would embed \(bytes / 1_000_000) MB of trace, over the "
      + "viewer's \(limit / 1_000_000) MB limit; view a window of steps with --steps "
      + "(e.g. --steps 0...9999)"
  }

  /// `Traces/todos.ndjson` → `todos.html`, in the current directory.
  static func defaultOutput(_ tracePath: String) -> String {
    var name = String(tracePath.split(separator: "/").last ?? "trace")
    for suffix in [".ndjson", ".jsonl", ".json"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
      break
    }
    return name + ".html"
  }
}
