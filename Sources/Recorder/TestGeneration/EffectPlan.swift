/// Which of a trace's effects a generated test runs for real, and what the trace says of each.
///
/// The rule: a step's effects run for real when every effect it started has an end record
/// (`finished` or `cancelled`) that lists what its run read, and that is nothing but a clock
/// (`ContinuousClockKey`, `SuspendingClockKey`), for which the test puts a `TestClock`, and
/// `dismiss`. An effect that read anything else (an API client, storage, `uuid` or `date`, whose
/// values effects read are not recorded), a trace that does not say what effects read
/// (recorded before effect records had `reads`), or an effect the recording stopped before it
/// ended, is not run: what it sent is fed in with `receive(replaying:)`.
struct EffectPlan {
  /// How one effect ended, as its end record says.
  struct End {
    var cancelled: Bool
    /// What its run read; `nil` when the trace does not say.
    var reads: [String]?
    /// The last step before the end record; `nil` when it comes before every step.
    var afterStep: Int?
  }

  /// Whether the effects a step started can run in a test.
  enum Verdict: Equatable {
    case runs
    /// Fed in, and why, as a clause: "the effect of step 4 read numberFact, …".
    case fed(String)
  }

  /// The dependencies an effect may read and still run in a test: clocks, which a test clock
  /// stands in for, advanced as the recording's clock moved, and `dismiss`, which a test store
  /// runs as the app does.
  static let reproducibleReads = Set(clockProperties.keys).union(["DismissKey"])

  /// The `DependencyValues` property of each clock's key, which the test sets to its clock.
  static let clockProperties = [
    "ContinuousClockKey": "continuousClock", "SuspendingClockKey": "suspendingClock",
  ]

  private(set) var ends: [Int: End] = [:]

  init(records: [TraceRecord]) {
    var lastStep: Int?
    for record in records {
      switch record {
      case .step(let step):
        lastStep = step.index
      case .effect(let event) where event.event != .started:
        ends[event.effect] = End(
          cancelled: event.event == .cancelled, reads: event.reads, afterStep: lastStep)
      default:
        break
      }
    }
  }

  /// Whether the effects `step` started can run in a test; `nil` when it started none.
  func verdict(for step: TraceStep) -> Verdict? {
    guard !step.effects.isEmpty else { return nil }
    for effect in step.effects {
      guard let end = ends[effect] else {
        return .fed(
          "the recording stopped while the effect of step \(step.index) ran, so the trace "
            + "does not say what it read")
      }
      guard let reads = end.reads else {
        return .fed("the trace does not record what the effect of step \(step.index) read")
      }
      let others = reads.filter { !Self.reproducibleReads.contains($0) }
      if !others.isEmpty {
        return .fed(
          "the effect of step \(step.index) read \(TestFileWriter.list(others)), which the "
            + "trace cannot reproduce")
      }
    }
    return .runs
  }

  /// The `DependencyValues` properties of the clocks the effects of `step` read.
  func clocks(readBy step: TraceStep) -> Set<String> {
    var clocks: Set<String> = []
    for effect in step.effects {
      clocks.formUnion((ends[effect]?.reads ?? []).compactMap { Self.clockProperties[$0] })
    }
    return clocks
  }

  /// Whether `effect` had ended, by the trace, before the step after `step` was reduced.
  func hasEnded(_ effect: Int, by step: Int) -> Bool {
    guard let end = ends[effect] else { return false }
    guard let after = end.afterStep else { return true }
    return after <= step
  }
}
