import Foundation
import Recorder
import TraceJSON

/// `tca-replay verify`: do these traces still replay through today's reducer? For CI and for
/// `git bisect run`.
enum VerifyCommand: Command {
  static let name = "verify"
  static let abstract = "Check traces against today's reducer, for CI and `git bisect run`."
  static let overview = """
    Replay every trace given, and every *.ndjson file in every folder given, through
    today's reducers in a replay host (isolated mode), and print one line per trace. The exit
    code suits CI and `git bisect run tca-replay verify …`.
    """
  static let positionals = [
    Positional(
      name: "<trace or folder>", help: "Trace files, or folders whose *.ndjson files are traces.",
      repeats: true)
  ]
  static let host = Option<String>(
    "--host", value: "<command>", help: "The replay host (see 'tca-replay bisect --help').",
    required: true)
  static let hostLog = Option<String>(
    "--host-log", value: "<file>",
    help: "Append the host's standard error to this file (see 'tca-replay bisect --help').")
  static let json = Flag(
    "--json", help: "Print one JSON object per trace instead of a line of text.")
  static let options: [any CommandOption] = [host, BisectCommand.timeout, hostLog, json]
  static let discussion = """
    A reducer that crashes on a step is a divergence at that step ("crashed the reducer"), so
    `git bisect run` marks the commit bad; the host is started again for the next trace. A
    trace that ends in a crash replays its crashing step last: "still crashes the reducer, as
    when recorded" is a divergence; a step that no longer crashes is ok, with a note on
    standard error.

    EXIT CODES:
      0 every trace replays without divergence; 1 some trace diverges, or crashes the reducer;
      125 cannot test: the host failed (did not start, died outside a step, hung, or spoke
      nonsense), or a trace is missing, malformed or not served by the host (git bisect skips
      the commit); 64 bad arguments.
    """

  /// What became of one trace.
  enum Verdict: String {
    case matches, diverges, cannotTest
  }

  static func run(_ parsed: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let timeout = parsed[BisectCommand.timeout] ?? .seconds(30)
    let command = parsed[required: host]
    let logPath = parsed[hostLog]
    let output = context.output
    let errors = context.errors
    let json = parsed[Self.json]
    var verdicts: [Verdict] = []
    func record(_ verdict: Verdict, _ path: String, report: ReplayReport? = nil, text: String) {
      verdicts.append(verdict)
      if json {
        var object: JSONValue = ["trace": .string(path), "verdict": .string(verdict.rawValue)]
        if case var .object(members) = object {
          if let report, let encoded = try? JSONValueEncoder().encode(report) {
            members["report"] = encoded
          } else {
            members["problem"] = .string(text)
          }
          object = .object(members)
        }
        output.writeJSON(object.jsonString + "\n")
      } else {
        output.write(text + "\n")
        // Each names its trace: a folder of traces (`.lastSteps` segments) warns about several.
        for warning in report?.warnings ?? [] {
          let named = warning.hasPrefix(path + ":") ? warning : "\(path): \(warning)"
          errors.write("warning: \(named)\n")
        }
      }
    }

    var traces: [String] = []
    for argument in parsed.positionals {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
        let found = names.filter { $0.hasSuffix(".ndjson") }.sorted()
        if found.isEmpty {
          record(.cannotTest, argument, text: "cannot test  \(argument): no *.ndjson traces in it")
        }
        traces += found.map { (argument as NSString).appendingPathComponent($0) }
      } else {
        traces.append(argument)
      }
    }

    do throws(HostError) {
      // On an error, the host has been stopped, with its whole process group, before it is
      // thrown; on success it is asked to leave.
      // A host that crashed is gone: the next trace gets a new one.
      var running: HostProcess?
      for path in traces {
        let host: HostProcess
        if let running {
          host = running
        } else {
          host = try HostProcess(
            command: command, timeout: timeout, logPath: logPath
          )
        }
        running = host
        switch try host.replay(
          path: path, mode: .isolated, maximumDivergences: 1, precedingSteps: 0
        ) {
        case var .crashed(crash):
          running = nil
          crash = crash.first(
            command: command, timeout: timeout, logPath: logPath, path: path,
            precedingSteps: 0
          )
          let report = crash.report(trace: path, mode: .isolated, precedingSteps: 0)
          let label = report.firstDivergence?.label ?? ""
          let signal = HostCrash.describe(signal: crash.signal)
          let verdict =
            report.recordedCrash?.outcome == .crashes
            ? "still crashes the reducer, as when recorded" : "crashed the reducer"
          record(
            .diverges, path, report: report,
            text: "diverges     \(path): step \(crash.step) \(label) \(verdict) ("
              + ([signal] + crash.reason.prefix(1)).joined(separator: ": ") + ")"
          )
          errors.write(
            "note: the replay host's output, with its backtrace, is in \(crash.log)\n"
          )
        case let .refused(_, message):
          record(.cannotTest, path, text: "cannot test  \(message)")
        case let .report(report):
          if let divergence = report.firstDivergence {
            let paths = divergence.differences.prefix(3).map(\.path.description)
              .joined(separator: ", ")
            let location = divergence.reason == .state ? paths : (divergence.codingPath ?? "")
            let kind =
              divergence.reason == .dependencyReads ? "dependency reads" : divergence.reason.rawValue
            record(
              .diverges, path, report: report,
              text: "diverges     \(path): step \(divergence.step) \(divergence.label) "
                + "(\(kind)"
                + "\(location.isEmpty ? "" : " at \(location)")); \(report.divergentSteps) of "
                + "\(report.steps) steps diverge"
            )
          } else {
            let skipped = report.notReplayable.count
            let crash = report.recordedCrash.map { crash in
              crash.outcome == .noLongerCrashes
                ? " (step \(crash.step), which crashed the recording, no longer crashes)"
                : " (step \(crash.step), which crashed the recording, was not replayed)"
            }
            record(
              .matches, path, report: report,
              text: "ok           \(path): \(report.replayed) steps replay"
                + (report.unknown > 0 ? " (\(report.unknown) unknown: reads redacted data)" : "")
                + (skipped > 0 ? " (\(skipped) not replayable)" : "") + (crash ?? "")
            )
          }
          if !json, let crash = report.recordedCrash, crash.outcome != .crashes {
            errors.write("note: \(path): \(crash.sentence.escapingControlCharacters)\n")
          }
        }
      }
      if let late = running?.finish() { errors.write("warning: \(late)\n") }
    } catch {
      errors.write("Error: \(error)\n")
      return verdicts.contains(.diverges) ? .diverges : .cannotTest
    }

    let diverging = verdicts.filter { $0 == .diverges }.count
    let untested = verdicts.filter { $0 == .cannotTest }.count
    if !json {
      output.write(
        "\(verdicts.count) trace\(verdicts.count == 1 ? "" : "s"): "
          + "\(verdicts.count - diverging - untested) ok, \(diverging) diverge, "
          + "\(untested) cannot be tested\n"
      )
    }
    if diverging > 0 { return .diverges }
    return untested > 0 ? .cannotTest : .success
  }
}
