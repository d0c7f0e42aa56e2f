import Recorder
import TraceJSON

/// `tca-replay bisect`: where does today's reducer first diverge from a recording?
enum BisectCommand: Command {
  static let name = "bisect"
  static let abstract = "The first step where today's reducer diverges from the recording."
  static let overview = """
    Replay a trace's actions through today's reducer, with the dependency values
    they read when recorded, and report the first step whose state, effects or dependency
    reads differ from the recording: the step, its action and origin, the steps before it,
    and the expected and actual values at each differing JSON path. Effects are compared,
    not run: how many each step starts, the cancellation ids it cancels and marks (traces of
    format version 4). The actions effects sent are replayed from the trace, in order. A step
    that reads redacted data and differs is unknown, not a divergence.
    """
  static let positionals = [Positional.trace]
  static let mode = Option<ReplayMode>(
    "--mode", value: "<mode>",
    help: "isolated (default): every step from its recorded state, on every core, counting "
      + "every divergent step. cumulative: one run from the initial state, as the user "
      + "experienced it."
  ) { text, name throws(UsageError) in
    guard let mode = ReplayMode(rawValue: text) else {
      throw UsageError(message: "'\(name)' is isolated or cumulative, not '\(text)'")
    }
    return mode
  }
  static let all = Flag("--all", help: "Detail every divergent step, not just the first.")
  static let stepsBefore = Option<Int>.count(
    "--context", value: "<n>", help: "How many steps before a divergence to list (default 5).")
  static let json = Flag(
    "--json", help: "Print the report as JSON (Documentation/ReplayHostProtocol.md).")
  static let blame = Flag(
    "--blame",
    help: "For the first divergent step, also name the reducers and lines of today's code that "
      + "wrote each differing path (as 'tca-replay blame'; a host of protocol 3).")
  static let options: [any CommandOption] =
    HostSettings.options(required: true) + [mode, all, stepsBefore, json, blame]
  static let discussion = """
    A reducer that crashes (a force-unwrap of nil, a failed precondition) is a divergence at
    the step it was reducing: "step 7 crashed the reducer", with the signal and the first lines
    of the reason. In isolated mode, where several threads reduce at once, the trace is then
    replayed again on one thread, so that the step named is the first to crash. A trace that
    ends in a crash replays its crashing step last: "still crashes the reducer, as when
    recorded" (exit 1), or, when it returns, a line saying it no longer crashes (exit 0).

    EXIT CODES:
      0 no divergence, 1 diverges or crashes, 64 bad arguments, 65 malformed trace, 66 missing
      trace, 125 the host failed (did not start, died outside a step, hung, or spoke nonsense).
    """

  static func run(_ parsed: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let precedingSteps = parsed[stepsBefore] ?? 5
    let mode = parsed[Self.mode] ?? .isolated
    let settings = HostSettings(required: parsed)
    let output = context.output
    let errors = context.errors
    let path = parsed.positionals[0]

    let host: HostProcess
    let answer: HostProcess.Answer
    do throws(HostError) {
      host = try settings.start()
      answer = try host.replay(
        path: path, mode: mode,
        maximumDivergences: parsed[all] ? 1_000_000 : 1,
        precedingSteps: precedingSteps
      )
    } catch {
      errors.write("Error: \(error)\n")
      return .cannotTest
    }
    // Today's writers of the first divergence's paths, asked of the same host.
    var blamed: [String] = []
    if parsed[blame], !parsed[json], case let .report(report) = answer,
      let first = report.divergences.first, !first.differences.isEmpty
    {
      do throws(HostError) {
        if case let .blame(reply) = try host.blame(path: path, step: first.step) {
          blamed = blameLines(reply, paths: first.differences.map(\.path), trace: path)
        }
      } catch {
        context.warn("cannot blame step \(first.step): \(error)", file: path)
      }
    }
    if let late = host.finish() { context.warn("\(late)") }
    switch answer {
    case let .refused(problem, message):
      errors.write("Error: \(message)\n")
      return ExitStatus(refusal: problem)
    case var .crashed(crash):
      if mode == .isolated {
        crash = crash.first(settings: settings, path: path, precedingSteps: precedingSteps)
      }
      let report = crash.report(trace: path, mode: mode, precedingSteps: precedingSteps)
      if parsed[json] {
        output.writeJSON(((try? JSONValueEncoder().encode(report))?.jsonString ?? "{}") + "\n")
      } else {
        output.write(report.description(values: StateValueText(traceAt: path)) + "\n")
      }
      errors.write("note: the replay host's output, with its backtrace, is in \(crash.log)\n")
      return .diverges
    case let .report(report):
      if parsed[json] {
        output.writeJSON(((try? JSONValueEncoder().encode(report))?.jsonString ?? "{}") + "\n")
      } else {
        output.write(
          report.description(values: StateValueText(traceAt: path), warnings: false) + "\n")
        for warning in report.warnings { errors.write(warning + "\n") }
        if !blamed.isEmpty { output.write(blamed.joined(separator: "\n") + "\n") }
      }
      return report.matches ? .success : .diverges
    }
  }

  /// The writers today's code gives each differing path, under a heading.
  static func blameLines(_ reply: BlameReply, paths: [JSONPointer], trace: String) -> [String] {
    guard let index = try? TraceIndex(path: trace) else { return [] }
    var text = BlameText(
      values: index.valueText(), after: (try? index.state(afterStep: reply.step)) ?? .null,
      filter: nil)
    let differing = reply.changes.filter { change in
      paths.contains { BlameText.related($0.tokens, change.path.tokens) }
    }
    var lines = ["  written by today's code (tca-replay blame):"]
    var shown = reply
    shown.changes = differing
    shown.effects = []
    lines += text.lines(shown).dropFirst().filter { !$0.hasPrefix("(the step") }.map { "    " + $0 }
    let unwritten = paths.filter { path in
      !reply.changes.contains { BlameText.related(path.tokens, $0.path.tokens) }
    }
    for path in unwritten {
      lines.append("    \(path.description.escapingControlCharacters): today's code does not change it")
    }
    return lines
  }
}
