import Architecture
import Counter
import Foundation
import Recorder
import ReplayMutants
import Testing

/// Effects, dependency reads and redaction in the replay verdict, on the journal: a domain
/// none of the examples has (a debounced autosave, a sync timer, a timestamp and an email).
@Suite("Replay verdict: effects, dependency reads and redaction")
struct EffectVerdictTests {
  /// Records ``JournalFeature/session`` to a temporary trace, every date read answering one
  /// instant.
  static func recordJournal(redactions: [Redaction] = []) throws -> String {
    let path = Paths.temporary("journal.ndjson")
    let recorder = try TraceRecorder(path: path, options: .init(redactions: redactions))
    let reducer = JournalFeature().recording(to: recorder)
    var state = JournalFeature.State()
    withDependencies {
      $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 786_000_000) }
    } operation: {
      for action in JournalFeature.session { _ = reducer.reduce(into: &state, action: action) }
    }
    try recorder.close()
    return path
  }

  static let journal: String = try! recordJournal()
  static let redactedJournal: String = try! recordJournal(redactions: [.key("email")])

  static func host(_ mutant: JournalMutant) -> String {
    "\(Paths.executable("mutant-replay-host")) \(mutant.rawValue)"
  }

  /// Replays `path` through `mutant` with the library.
  static func replay(
    _ mutant: JournalMutant, _ path: String, _ mode: ReplayMode, all: Bool = false
  ) async throws -> ReplayReport {
    let keep = all ? 100 : 1
    switch mutant {
    case .unchanged: return try await replayTrace(path, JournalFeature(), mode, keep)
    case .extraDateRead: return try await replayTrace(path, DoubleStampJournal(), mode, keep)
    default: return try await replayTrace(path, ChangedJournal(mutant: mutant), mode, keep)
    }
  }

  static let effectMutants: [JournalMutant] = [
    .droppedSave, .droppedCancelInFlight, .wrongCancelID, .extraDateRead,
  ]

  @Test("the trace records the ids each step's effect cancels and is cancellable by")
  func traceRecordsCancellation() throws {
    let trace = try RecordedTrace(Self.journal)
    let save = String(reflecting: JournalFeature.CancelID.save)
    let sync = String(reflecting: JournalFeature.CancelID.sync)
    #expect(trace.steps[0].effects.count == 1)
    #expect(trace.steps[0].cancels == [save])
    #expect(trace.steps[0].cancellable == [save])
    #expect(trace.steps[3].cancels == [])
    #expect(trace.steps[3].cancellable == [sync])
    #expect(trace.steps[8].effects == [])
    #expect(trace.steps[8].cancels == [sync])
    #expect(trace.steps[5].dependencies.count == 1)
  }

  @Test(
    "a changed effect or an extra date read is caught at its exact step, in both modes, by the library",
    arguments: effectMutants, ReplayMode.allCases
  )
  func libraryCatches(mutant: JournalMutant, mode: ReplayMode) async throws {
    let report = try await Self.replay(mutant, Self.journal, mode, all: true)
    let divergence = try #require(report.firstDivergence)
    #expect(divergence.step == mutant.divergentSteps[0])
    #expect(divergence.differences.isEmpty)
    #expect(divergence.reason == (mutant == .extraDateRead ? .dependencyReads : .effects))
    if mode == .isolated {
      #expect(report.divergences.map(\.step) == mutant.divergentSteps)
    }
  }

  @Test("a dropped save says what the recording started and cancelled, and what today's does")
  func droppedSaveDetails() async throws {
    let report = try await Self.replay(.droppedSave, Self.journal, .isolated)
    let effects = try #require(report.firstDivergence?.effects)
    let save = String(reflecting: JournalFeature.CancelID.save)
    #expect(effects.recordedStarts == 1)
    #expect(effects.replayedStarts == 0)
    #expect(effects.recordedCancels == [save])
    #expect(effects.replayedCancels == [])
  }

  @Test("an extra date read says how many dates the recording read and today's reducer reads")
  func extraDateDetails() async throws {
    let report = try await Self.replay(.extraDateRead, Self.journal, .cumulative)
    let reads = try #require(report.firstDivergence?.dependencyReads)
    #expect(reads.recorded == ["date": 1])
    #expect(reads.replayed == ["date": 2])
    #expect(report.description.contains("      − 1 date\n      + 2 dates"), "\(report)")
  }

  @Test("the unchanged journal replays with no divergence, in both modes", arguments: ReplayMode.allCases)
  func unchanged(mode: ReplayMode) async throws {
    let report = try await Self.replay(.unchanged, Self.journal, mode)
    #expect(report.matches)
    #expect(report.unknown == 0)
    #expect(report.notCompared == nil)
  }

  @Test(
    "bisect through a host names the exact step and what differs in effects, and exits 1",
    arguments: effectMutants, ReplayMode.allCases
  )
  func bisectCatches(mutant: JournalMutant, mode: ReplayMode) async throws {
    let run = try await Run.tool(
      "bisect", Self.journal, "--host", Self.host(mutant), "--mode", mode.rawValue
    )
    #expect(run.status == 1, "\(run.errors)")
    let aspect = mutant == .extraDateRead ? "dependency reads" : "effects"
    #expect(
      run.output.contains(
        "step \(mutant.divergentSteps[0]) diverges from the recording in \(aspect) ("),
      "\(run.output)"
    )
  }

  @Test("bisect prints a wrong cancel id as the recorded and today's ids")
  func wrongCancelIDText() async throws {
    let run = try await Run.tool("bisect", Self.journal, "--host", Self.host(.wrongCancelID))
    #expect(run.status == 1, "\(run.errors)")
    let save = String(reflecting: JournalFeature.CancelID.save)
    let sync = String(reflecting: JournalFeature.CancelID.sync)
    #expect(
      run.output.contains(
        """
          effects differ (recorded −, today +)
            cancels
              − \(sync)
              + \(save)
        """
      ),
      "\(run.output)"
    )
  }

  @Test("verify through a host exits 1 for each changed effect or read", arguments: effectMutants)
  func verifyCatches(mutant: JournalMutant) async throws {
    let run = try await Run.tool("verify", Self.journal, "--host", Self.host(mutant))
    #expect(run.status == 1, "\(run.output)\(run.errors)")
    let kind = mutant == .extraDateRead ? "dependency reads" : "effects"
    #expect(
      run.output.contains("step \(mutant.divergentSteps[0]) .") && run.output.contains("(\(kind))"),
      "\(run.output)"
    )
  }

  @Test("verify of the unchanged journal, plain and redacted, exits 0")
  func verifyUnchanged() async throws {
    let run = try await Run.tool(
      "verify", Self.journal, Self.redactedJournal, "--host", Self.host(.unchanged)
    )
    #expect(run.status == 0, "\(run.output)\(run.errors)")
    #expect(run.output.contains("12 steps replay (1 unknown: reads redacted data)"), "\(run.output)")
  }

  @Test(
    "a trace redacted with .key(\"email\") of an unchanged reducer with an email check matches, one step unknown",
    arguments: ReplayMode.allCases
  )
  func redactedUnchanged(mode: ReplayMode) async throws {
    let report = try await Self.replay(.unchanged, Self.redactedJournal, mode)
    #expect(report.matches, "\(report)")
    #expect(report.unknown == 1)
    #expect(report.description.contains("1 step unknown (reads redacted data)"))
  }

  @Test(
    "a real change in a redacted trace is still caught at its step",
    arguments: ReplayMode.allCases
  )
  func redactedChange(mode: ReplayMode) async throws {
    let report = try await Self.replay(.changedSignUp, Self.redactedJournal, mode, all: true)
    let divergence = try #require(report.firstDivergence)
    #expect(divergence.step == 9)
    #expect(divergence.differences.map(\.path.description) == ["/signUpMessage"])
    if mode == .isolated { #expect(report.divergentSteps == 1) }
    let run = try await Run.tool(
      "bisect", Self.redactedJournal, "--host", Self.host(.changedSignUp), "--mode", mode.rawValue
    )
    #expect(run.status == 1)
    #expect(run.output.contains("step 9 diverges from the recording ("), "\(run.output)")
  }

  @Test("a trace of format version 2 says cancellation was not compared, and still matches")
  func olderTrace() async throws {
    // The counter as an earlier build recorded it, kept for this check.
    let path = Paths.packageRoot.appendingPathComponent("Tests/ToolTests/Fixtures/counter-v2.ndjson")
    let report = try await replayTrace(path.path, CounterFeature(), .isolated)
    #expect(report.matches)
    #expect(report.notCompared == ["cancellation ids (format version 2 does not record them)"])
  }
}
