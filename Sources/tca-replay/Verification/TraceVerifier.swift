import Recorder

/// Replays one trace in a replay host, isolated, and says what became of it in one line: the
/// verification `verify` runs for each trace, on its own thread with `--jobs`.
struct TraceVerifier: Sendable {
  var settings: HostSettings

  /// What became of one trace.
  enum Verdict: String, Sendable {
    case matches, diverges, cannotTest
  }

  /// One trace's verdict and what to print about it, made by a job, printed in trace order.
  struct Outcome: Sendable {
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

  /// Replays the trace at `path` in `running`, starting a host if there is none; a host that
  /// crashed is gone, and `running` is `nil` after it.
  ///
  /// - Throws: ``HostError`` when the host failed; it has been stopped, with its whole group.
  func verify(_ path: String, in running: inout HostProcess?) throws(HostError) -> Outcome {
    let host: HostProcess
    if let running {
      host = running
    } else {
      host = try settings.start()
    }
    running = host
    switch try host.replay(path: path, mode: .isolated, maximumDivergences: 1, precedingSteps: 0) {
    case var .crashed(crash):
      running = nil
      crash = crash.first(settings: settings, path: path, precedingSteps: 0)
      return crashed(crash, path: path)
    case let .refused(_, message):
      return Outcome(verdict: .cannotTest, path: path, text: "cannot test  \(message)")
    case let .report(report):
      return replayed(report, path: path)
    }
  }

  /// A crash of the reducer: a divergence at the step it crashed on.
  private func crashed(_ crash: HostCrash, path: String) -> Outcome {
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
  }

  /// A report: the first divergence, or how many steps replay.
  private func replayed(_ report: ReplayReport, path: String) -> Outcome {
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
