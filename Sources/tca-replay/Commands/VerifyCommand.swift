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
  static let jobs = Option<Int>(
    "--jobs", value: "<n>",
    help: "Replay this many traces at once, each in its own host (default 1)."
  ) { text, name throws(UsageError) in
    guard let number = Int(text), (1...HostProcessGroup.slots).contains(number) else {
      throw UsageError(
        message: "'\(name)' takes a number from 1 to \(HostProcessGroup.slots), not '\(text)'")
    }
    return number
  }
  static let shard = Option<Shard>.shard(
    "--shard", value: "<i/n>",
    help: "Verify only part i of n of the traces, sorted by path and dealt round-robin.")
  static let junit = Option<String>(
    "--junit", value: "<file>",
    help: "Also write a JUnit XML report: one test case per trace, a divergence as a failure.")
  static let options: [any CommandOption] = [
    host, BisectCommand.timeout, hostLog, jobs, shard, junit, json,
  ]
  static let discussion = """
    A reducer that crashes on a step is a divergence at that step ("crashed the reducer"), so
    `git bisect run` marks the commit bad; the host is started again for the next trace. A
    trace that ends in a crash replays its crashing step last: "still crashes the reducer, as
    when recorded" is a divergence; a step that no longer crashes is ok, with a note on
    standard error.

    With --jobs, each job has its own host; the lines come in the order of the traces whatever
    order they finish in. --shard sorts the traces by path and deals them round-robin: shard i
    of n takes the i-th, the (i+n)-th, and so on, so n machines verify each trace once.

    EXIT CODES:
      0 every trace replays without divergence; 1 some trace diverges, or crashes the reducer;
      125 cannot test: the host failed (did not start, died outside a step, hung, or spoke
      nonsense), or a trace is missing, malformed or not served by the host (git bisect skips
      the commit); 64 bad arguments; 73 the JUnit report cannot be written.
    """


  /// What became of one trace.
  enum Verdict: String, Sendable {
    case matches, diverges, cannotTest
  }

  /// One trace's verdict and what to print about it, made by a job, printed in trace order.
  struct Outcome: @unchecked Sendable {
    var verdict: Verdict
    var path: String
    var report: ReplayReport?
    /// The line of text; in JSON, the problem when there is no report.
    var text: String
    /// Lines for standard error after the verdict: in text, the report's warnings first.
    var notes: [String] = []
    /// Lines for standard error in text only.
    var textNotes: [String] = []
    var seconds: Double = 0
  }

  /// How every job runs its host.
  struct HostSettings: Sendable {
    var command: String
    var timeout: Duration
    var logPath: String?
  }

  static func run(_ parsed: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let settings = HostSettings(
      command: parsed[required: host], timeout: parsed[BisectCommand.timeout] ?? .seconds(30),
      logPath: parsed[hostLog])
    let output = context.output
    let errors = context.errors
    let json = parsed[Self.json]
    var outcomes: [Outcome] = []
    func record(_ outcome: Outcome) {
      outcomes.append(outcome)
      if json {
        var members: JSONObject = [
          "trace": .string(outcome.path), "verdict": .string(outcome.verdict.rawValue),
        ]
        if let report = outcome.report, let encoded = try? JSONValueEncoder().encode(report) {
          members["report"] = encoded
        } else {
          members["problem"] = .string(outcome.text)
        }
        output.writeJSON(JSONValue.object(members).jsonString + "\n")
      } else {
        output.write(outcome.text + "\n")
        // Each names its trace: a folder of traces (`.lastSteps` segments) warns about several.
        for warning in outcome.report?.warnings ?? [] { errors.write(warning + "\n") }
        for read in outcome.report?.unpinnedReads ?? [] {
          let sentence = read.sentence(reducer: outcome.report?.reducer ?? "Feature")
          errors.write("unpinned: \(outcome.path): \(sentence)\n")
        }
      }
      for note in outcome.notes + (json ? [] : outcome.textNotes) { errors.write(note) }
    }

    var traces: [String] = []
    for argument in parsed.positionals {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
        let found = names.filter { $0.hasSuffix(".ndjson") }.sorted()
        if found.isEmpty {
          record(
            Outcome(
              verdict: .cannotTest, path: argument,
              text: "cannot test  \(argument): no *.ndjson traces in it"))
        }
        traces += found.map { (argument as NSString).appendingPathComponent($0) }
      } else {
        traces.append(argument)
      }
    }
    if let shard = parsed[Self.shard] { traces = shard.select(traces) }

    var failure: HostError?
    VerifyJobs(traces: traces, jobs: parsed[Self.jobs] ?? 1, settings: settings).run {
      switch $0 {
      case .success(let outcome): record(outcome)
      case .failure(let error): failure = error
      }
    } late: { context.warn($0) }

    if let path = parsed[Self.junit] {
      let report = JUnitReport(
        cases: outcomes.map {
          JUnitReport.Case(trace: $0.path, verdict: $0.verdict, text: $0.text, seconds: $0.seconds)
        })
      do {
        try PrivateFile.write(report.xml, to: path)
      } catch {
        errors.write(
          "Error: cannot write the JUnit report \(path): \(whyUnwritable(path, error))\n")
        return .cannotCreate
      }
    }
    let verdicts = outcomes.map(\.verdict)
    if let failure {
      errors.write("Error: \(failure)\n")
      return verdicts.contains(.diverges) ? .diverges : .cannotTest
    }

    let diverging = verdicts.filter { $0 == .diverges }.count
    let untested = verdicts.filter { $0 == .cannotTest }.count
    if !json {
      output.write(
        "\(counted(verdicts.count, "trace")): "
          + "\(verdicts.count - diverging - untested) ok, \(diverging) diverge, "
          + "\(untested) cannot be tested\n"
      )
    }
    if diverging > 0 { return .diverges }
    return untested > 0 ? .cannotTest : .success
  }

  /// Replays one trace in `running`, starting a host if there is none; a host that crashed is
  /// gone, and `running` is `nil` after it.
  ///
  /// - Throws: ``HostError`` when the host failed; it has been stopped, with its whole group.
  static func verify(
    _ path: String, in running: inout HostProcess?, settings: HostSettings
  ) throws(HostError) -> Outcome {
    let command = settings.command
    let timeout = settings.timeout
    let logPath = settings.logPath
    let host: HostProcess
    if let running {
      host = running
    } else {
      host = try HostProcess(command: command, timeout: timeout, logPath: logPath)
    }
    running = host
    switch try host.replay(path: path, mode: .isolated, maximumDivergences: 1, precedingSteps: 0) {
    case var .crashed(crash):
      running = nil
      crash = crash.first(
        command: command, timeout: timeout, logPath: logPath, path: path, precedingSteps: 0)
      let report = crash.report(trace: path, mode: .isolated, precedingSteps: 0)
      let label = report.firstDivergence?.label ?? ""
      let signal = HostCrash.describe(signal: crash.signal)
      let verdict =
        report.recordedCrash?.outcome == .crashes
        ? "still crashes the reducer, as when recorded" : "crashed the reducer"
      return Outcome(
        verdict: .diverges, path: path, report: report,
        text: "diverges     \(path): step \(crash.step) \(label) \(verdict) ("
          + ([signal] + crash.reason.prefix(1)).joined(separator: ": ") + ")",
        notes: ["note: the replay host's output, with its backtrace, is in \(crash.log)\n"])
    case let .refused(_, message):
      return Outcome(verdict: .cannotTest, path: path, text: "cannot test  \(message)")
    case let .report(report):
      var textNotes: [String] = []
      if let crash = report.recordedCrash, crash.outcome != .crashes {
        textNotes.append("note: \(path): \(crash.sentence.escapingControlCharacters)\n")
      }
      if let divergence = report.firstDivergence {
        let paths = divergence.differences.prefix(3).map(\.path.description)
          .joined(separator: ", ")
        let location = divergence.reason == .state ? paths : (divergence.codingPath ?? "")
        let kind =
          divergence.reason == .dependencyReads ? "dependency reads" : divergence.reason.rawValue
        return Outcome(
          verdict: .diverges, path: path, report: report,
          text: "diverges     \(path): step \(divergence.step) \(divergence.label) "
            + "(\(kind)"
            + "\(location.isEmpty ? "" : " at \(location)")); \(report.divergentSteps) of "
            + counted(report.steps, "step") + verb(report.divergentSteps, " diverges", " diverge"),
          textNotes: textNotes)
      }
      let skipped = report.notReplayable.count
      let crash = report.recordedCrash.map { crash in
        crash.outcome == .noLongerCrashes
          ? " (step \(crash.step), which crashed the recording, no longer crashes)"
          : " (step \(crash.step), which crashed the recording, was not replayed)"
      }
      return Outcome(
        verdict: .matches, path: path, report: report,
        text: "ok           \(path): \(counted(report.replayed, "step"))"
          + verb(report.replayed, " replays", " replay")
          + (report.unknown > 0 ? " (\(report.unknown) unknown: reads redacted data)" : "")
          + (skipped > 0 ? " (\(skipped) not replayable)" : "") + (crash ?? ""),
        textNotes: textNotes)
    }
  }
}
