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
  static let options: [any CommandOption] =
    HostSettings.options(required: true) + [jobs, shard, junit, json]
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

  typealias Outcome = TraceVerifier.Outcome

  static func run(_ parsed: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let verifier = TraceVerifier(settings: HostSettings(required: parsed))
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
    VerifyJobs(traces: traces, jobs: parsed[Self.jobs] ?? 1, verifier: verifier).run {
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
}
