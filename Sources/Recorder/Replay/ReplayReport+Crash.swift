import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ReplayReport {
  /// The report of a replay whose reducer crashed at `step`: one divergence,
  /// ``Divergence/Reason/crashed``, with the step's action, origin and the steps before it, read
  /// from the trace.
  ///
  /// A crash ends the replay, so nothing else is known: `divergentSteps` is 1, and `replayed`
  /// counts the steps replayed before it in cumulative mode, and none in isolated mode, whose
  /// threads report only at the end.
  ///
  /// - Parameters:
  ///   - signal: The signal that ended the replay host.
  ///   - reason: The first lines of the reason, as the Swift runtime wrote them.
  package static func crash(
    trace path: String, mode: ReplayMode, step: Int, signal: Int, reason: [String],
    precedingSteps: Int
  ) -> ReplayReport {
    var reducer = ""
    var count = 0
    var crashing: TraceStep?
    // The trace's own crash record, when the step that crashed is the one that crashed the
    // recording: it has no step record, only its label and action.
    var recorded: TraceCrash?
    var recent = RecentSteps(capacity: max(0, precedingSteps))
    var before: [StepSummary] = []
    if let reader = try? TraceReader(path: path) {
      // A trace that no longer reads still names the step: the host read it.
      while let record = try? reader.next() {
        switch record {
        case let .header(header): reducer = header.reducer
        case let .step(recorded):
          count += 1
          if recorded.index == step {
            crashing = recorded
            before = recent.summaries
          } else if crashing == nil {
            recent.append(recorded)
          }
        case let .crash(crash) where crash.step == step && crashing == nil:
          recorded = crash
          before = recent.summaries
        default: break
        }
      }
    }
    let label = crashing?.label ?? recorded?.label ?? "(step \(step))"
    let divergence = Divergence(
      step: step, label: label, action: crashing?.action ?? recorded?.action,
      origin: crashing.map { StepOrigin($0.origin) } ?? StepOrigin(.send), reason: .crashed,
      differences: [], codingPath: nil,
      message: reason.isEmpty ? nil : reason.joined(separator: "\n"),
      precedingSteps: before, extraDependencyReads: 0, unreadDependencyValues: 0, issues: [],
      signal: signal
    )
    var report = ReplayReport(
      trace: path, reducer: reducer, mode: mode, steps: max(count, step + 1),
      replayed: mode == .cumulative ? step : 0, divergentSteps: 1, divergences: [divergence],
      notReplayable: [], unknown: 0, warnings: []
    )
    report.recordedCrash = recorded.map {
      RecordedCrash(step: step, label: label, signal: $0.signal, outcome: .crashes)
    }
    return report
  }
}

extension Divergence {
  /// `signal 4 (SIGILL: a Swift runtime trap)`: a crash's signal, named.
  package static func describe(signal: Int) -> String {
    let name: String? =
      switch Int32(truncatingIfNeeded: signal) {
      case SIGILL, SIGTRAP: "\(signal == Int(SIGILL) ? "SIGILL" : "SIGTRAP"): a Swift runtime trap"
      case SIGSEGV: "SIGSEGV: a bad memory access, or a stack overflow"
      case SIGBUS: "SIGBUS: a bad memory access"
      case SIGFPE: "SIGFPE: an arithmetic error"
      case SIGABRT: "SIGABRT: abort()"
      default: nil
      }
    return "signal \(signal)" + (name.map { " (\($0))" } ?? "")
  }
}
