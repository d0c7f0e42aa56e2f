#if canImport(Glibc)
  import Glibc
#endif
import Recorder
import TraceJSON

/// A recorded session as the actions the user sent, each with every step its effects caused:
/// what `shrink` removes, whole.
struct SessionUnits {
  /// A sent action and the steps it caused, in trace order.
  struct Unit {
    var steps: [Int]
    var label: String
  }

  var units: [Unit]
  /// The step the recording crashed in, if its crash record holds the action: always kept,
  /// last, since it is where the recording failed.
  var crashStep: Int?
  /// The unit whose effect sent the crashing action, when the crash record says: always kept,
  /// since without it nothing sends that action.
  var crashCause: Int?
  /// The step the whole session diverged at, when shrinking a divergence: no later step is run.
  var divergentStep: Int? {
    didSet { divergentCase = divergentStep.flatMap { labels[$0] }.map(Self.actionCase) }
  }
  /// The case of the divergent step's action (`.harvested`): a step of the same case is an
  /// equivalent place for the failure.
  private(set) var divergentCase: String?
  var stepCount: Int
  /// Each replayable step's label, and the crashing step's.
  var labels: [Int: String] = [:]
  /// The steps the user sent, the crashing one included: those not from an effect.
  var sent: Set<Int> = []

  /// The units a shrunk session may leave out: those sent up to the divergent step, if any,
  /// less the crash's cause, which is always kept.
  var candidates: [Int] {
    units.indices.filter { unit in
      unit != crashCause && divergentStep.map { units[unit].steps[0] <= $0 } ?? true
    }
  }

  init(path: String) throws(TraceReadError) {
    let trace = try TraceIndex(path: path)
    var units: [Unit] = []
    var unitOfStep: [Int: Int] = [:]
    for index in trace.stepIndices {
      let step = try trace.step(at: index)
      guard step.action != nil else { continue }  // Not replayable: left out of every history.
      labels[step.index] = step.label
      if case .send = step.origin { sent.insert(step.index) }
      // An effect's action belongs with the step whose effect sent it; one whose cause is not
      // recorded is a unit of its own.
      if case let .effect(cause?) = step.origin, let unit = unitOfStep[cause] {
        units[unit].steps.append(step.index)
        unitOfStep[step.index] = unit
      } else {
        unitOfStep[step.index] = units.count
        units.append(Unit(steps: [step.index], label: step.label))
      }
    }
    self.units = units
    stepCount = trace.stepCount
    if let crash = trace.crash, crash.action != nil, let step = crash.step {
      crashStep = step
      labels[step] = crash.label ?? "(crashed)"
      if case let .effect(cause?)? = crash.origin, let unit = unitOfStep[cause] {
        crashCause = unit
      } else {
        sent.insert(step)
      }
    }
  }

  /// The history of the chosen units, by position in ``units``: their steps in trace order (up
  /// to the divergent step), then the crashing step.
  func entries(_ chosen: [Int]) -> [History.Entry] {
    var steps = (chosen + (crashCause.map { [$0] } ?? [])).flatMap { units[$0].steps }
    if let divergentStep { steps = steps.filter { $0 <= divergentStep } }
    return (steps.sorted() + (crashStep.map { [$0] } ?? [])).map(History.Entry.recorded)
  }

  /// The steps of `entries` compared when looking for the divergence: those of the divergent
  /// step's case.
  func comparedSteps(_ entries: [History.Entry]) -> Set<Int> {
    Set(
      entries.compactMap { entry in
        guard case let .recorded(step) = entry,
          labels[step].map(Self.actionCase) == divergentCase
        else { return nil }
        return step
      })
  }

  /// `.harvested(zone: 2)` as `.harvested`: the action's case.
  static func actionCase(_ label: String) -> String {
    String(label.prefix { $0 != "(" && $0 != " " })
  }
}

/// How a session fails, which a shrunk one must too.
enum ShrinkFailure: Equatable, CustomStringConvertible {
  /// The reducer crashes: with the first line of the reason (the Swift runtime's `file:line:
  /// Fatal error: message`), or the signal when the host's log says nothing.
  case crash(signature: String)
  /// Step `step` differs from the recording first: in `kind` (`state`, `effects`,
  /// `dependencyReads`) at `detail` (a state path, array indices as `*`: removing actions moves
  /// elements; what of the effects or which reads differ).
  case divergence(step: Int, kind: String, detail: String)
  /// The predicate comes true.
  case predicate(StatePredicate)

  var description: String {
    switch self {
    case let .crash(signature): "the reducer crashes: \(signature)"
    case let .divergence(step, "state", path):
      "step \(step) changes \(path) otherwise than the recording"
    case let .divergence(step, "effects", what):
      "step \(step)'s effects differ from the recording's (\(what))"
    case let .divergence(step, _, what):
      "step \(step) reads \(what) otherwise than the recording"
    case let .predicate(predicate): "\(predicate.text) comes true"
    }
  }

  /// The same failure, wherever it happens: a divergence of the same kind and detail at any
  /// step (the compared ones are of the divergent step's case).
  func isSame(as other: ShrinkFailure) -> Bool {
    switch (self, other) {
    case let (.divergence(_, kind, detail), .divergence(_, otherKind, otherDetail)):
      kind == otherKind && detail == otherDetail
    default: self == other
    }
  }

  /// Whether running a history showed this failure.
  func isShown(by observation: Shrinker.Observation) -> Bool {
    switch (self, observation) {
    case (.crash, .crashed(let crash)): ShrinkFailure.crash(crash) == self
    case (.predicate, .outcome(let outcome)): outcome.reached != nil
    case (.divergence, .outcome(let outcome)):
      ShrinkFailure.divergence(outcome).map(isSame) ?? false
    default: false
    }
  }

  /// Whether a history must compare each step's change with the recording's to show it.
  var comparesChanges: Bool {
    if case .divergence = self { return true }
    return false
  }

  /// The failure a crash shows.
  static func crash(_ crash: HostCrash) -> ShrinkFailure {
    .crash(signature: crash.reason.first ?? HostCrash.describe(signal: crash.signal))
  }

  /// The failure an outcome's first difference shows: its state's first path, or what of its
  /// effects or reads differs; `nil` for none, or a change that does not apply.
  static func divergence(_ outcome: HistoryOutcome) -> ShrinkFailure? {
    guard let first = outcome.differing.first, let step = first.step else { return nil }
    switch first.reason {
    case "state":
      guard let path = first.differences.first?.path else { return nil }
      return .divergence(step: step, kind: "state", detail: generalized(path.description))
    case "effects":
      guard let effects = first.effects else { return nil }
      var what: [String] = []
      if effects.recordedStarts != effects.replayedStarts { what.append("started") }
      if let cancels = effects.recordedCancels, cancels != effects.replayedCancels {
        what.append("cancels")
      }
      if let ids = effects.recordedCancellable, ids != effects.replayedCancellable {
        what.append("cancellable by")
      }
      return .divergence(step: step, kind: "effects", detail: what.joined(separator: ", "))
    case "dependencyReads":
      guard let reads = first.dependencyReads else { return nil }
      let kinds = Set(reads.recorded.keys).union(reads.replayed.keys)
        .filter { reads.recorded[$0] != reads.replayed[$0] }.sorted()
      return .divergence(step: step, kind: "dependencyReads", detail: kinds.joined(separator: ", "))
    default:
      return nil
    }
  }

  /// `/items/3/name` as `/items/*/name`.
  static func generalized(_ pointer: String) -> String {
    pointer.split(separator: "/", omittingEmptySubsequences: false)
      .map { $0.allSatisfy(\.isNumber) && !$0.isEmpty ? "*" : String($0) }
      .joined(separator: "/")
  }
}

/// Runs candidate sessions in a replay host, restarting it after each crash, and counts them.
final class Shrinker {
  let trace: String
  let predicate: StatePredicate?
  private let host: HistoryHost
  /// Candidates run in the host, the first run included.
  private(set) var replays = 0
  /// The session's units and what every candidate keeps.
  private(set) var units: SessionUnits
  /// Verdicts by candidate: ddmin asks again about some.
  private var verdicts: [[Int]: Bool] = [:]
  /// Called after each replay with the candidate's size.
  var progress: (Int) -> Void = { _ in }
  /// Replays the final check of 1-minimality made (the others were asked during ddmin).
  private(set) var checkReplays = 0

  init(trace: String, settings: HostSettings, predicate: StatePredicate?)
    throws(TraceReadError)
  {
    self.trace = trace
    self.units = try SessionUnits(path: trace)
    self.host = HistoryHost(settings: settings)
    self.predicate = predicate
  }

  /// What running the chosen units shows.
  enum Observation {
    case outcome(HistoryOutcome)
    case crashed(HostCrash)
  }

  /// Runs the chosen units, comparing each step's change with the recording's when looking
  /// for a divergence, and writing the history to `output` when given.
  func observe(
    _ chosen: [Int], comparing: Bool, output: String? = nil
  ) throws(ShrinkError) -> Observation {
    let entries = units.entries(chosen)
    let history = History(
      trace: trace, entries: entries,
      comparison: comparing ? .recordedChange : .nothing, until: predicate,
      stopsAtFirstDifference: comparing,
      comparedSteps: units.divergentStep == nil ? nil : units.comparedSteps(entries),
      output: output)
    replays += 1
    let answer: HostProcess.RunAnswer
    do throws(HostError) {
      answer = try host.run(history)
    } catch {
      throw .host(error)
    }
    switch answer {
    case let .outcome(outcome): return .outcome(outcome)
    case let .refused(problem, message): throw .refused(problem: problem, message: message)
    case let .crashed(crash): return .crashed(crash)
    }
  }

  /// The failure the whole session shows; `nil` when it shows none. A crash is looked for
  /// first, with nothing compared: a divergence before it would stop the history short of it.
  func failureOfWholeSession() throws(ShrinkError) -> ShrinkFailure? {
    let all = Array(units.units.indices)
    switch try observe(all, comparing: false) {
    case let .crashed(crash):
      return .crash(crash)
    case let .outcome(outcome):
      if let predicate { return outcome.reached == nil ? nil : .predicate(predicate) }
    }
    guard case let .outcome(outcome) = try observe(all, comparing: true),
      let failure = ShrinkFailure.divergence(outcome), case let .divergence(step, _, _) = failure
    else { return nil }
    units.divergentStep = step
    return failure
  }

  /// Whether the chosen units fail as `failure` does.
  func reproduces(_ failure: ShrinkFailure, with chosen: [Int]) throws(ShrinkError) -> Bool {
    if let known = verdicts[chosen] { return known }
    let observation = try observe(chosen, comparing: failure.comparesChanges)
    progress(chosen.count)
    let verdict = failure.isShown(by: observation)
    verdicts[chosen] = verdict
    return verdict
  }

  /// The 1-minimal set of units that fails as `failure`: ddmin's, then checked by removing
  /// each kept unit once more.
  func shrink(_ failure: ShrinkFailure) throws(ShrinkError) -> [Int] {
    let kept: [Int]
    do {
      kept = try DeltaDebugging.minimize(units.candidates) { chosen in
        try reproduces(failure, with: chosen)
      }
    } catch let error as ShrinkError {
      throw error
    } catch {
      preconditionFailure("only ShrinkError is thrown")
    }
    return try checkedOneMinimal(kept, failing: failure)
  }

  /// `kept` with every unit whose removal still fails removed, checked again after each: at
  /// most one replay per kept unit when it is 1-minimal already, fewer when ddmin asked.
  func checkedOneMinimal(_ kept: [Int], failing failure: ShrinkFailure) throws(ShrinkError) -> [Int] {
    var kept = kept
    var position = 0
    while position < kept.count {
      var without = kept
      without.remove(at: position)
      let before = replays
      let fails = try reproduces(failure, with: without)
      checkReplays += replays - before
      if fails {
        kept = without
        position = 0
      } else {
        position += 1
      }
    }
    return kept
  }

  /// Writes the chosen units' history to `path` as a trace; a crash ends it with a crash record.
  func write(
    _ chosen: [Int], failing failure: ShrinkFailure, to path: String
  ) throws(ShrinkError) -> Observation {
    let observation = try observe(chosen, comparing: failure.comparesChanges, output: path)
    guard case let .crashed(crash) = observation else { return observation }
    do {
      let history = History(
        trace: trace, entries: units.entries(chosen), comparison: .nothing,
        stopsAtFirstDifference: false)
      try HistoryTrace.appendCrash(crash, of: history, to: path, recording: TraceIndex(path: trace))
    } catch {
      throw .cannotWrite(path)
    }
    return observation
  }
}

/// Why `shrink` stopped.
enum ShrinkError: Error {
  case host(HostError)
  case refused(problem: String, message: String)
  case cannotWrite(String)
}
