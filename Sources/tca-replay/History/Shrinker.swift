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
  /// The step that diverged, when shrinking a divergence: always kept, and the last.
  var divergentStep: Int?
  var stepCount: Int
  /// Each replayable step's label, and the crashing step's.
  var labels: [Int: String] = [:]
  /// The steps the user sent, the crashing one included: those not from an effect.
  var sent: Set<Int> = []

  /// The units a shrunk session may keep: those sent before the divergent step, if any, less
  /// the one it belongs to, which is always kept.
  var candidates: [Int] {
    guard let divergentStep else { return Array(units.indices) }
    return units.indices.filter {
      units[$0].steps[0] < divergentStep && !units[$0].steps.contains(divergentStep)
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
      sent.insert(step)
      labels[step] = crash.label ?? "(crashed)"
    }
  }

  /// The history of the chosen units, by position in ``units``: their steps in trace order,
  /// then the crashing step.
  func entries(_ chosen: [Int]) -> [History.Entry] {
    var steps = chosen.flatMap { units[$0].steps }
    if let divergentStep {
      // The step that diverged, with what sent it: an effect's action is not sent alone.
      let own = units.first { $0.steps.contains(divergentStep) }?.steps ?? [divergentStep]
      steps = (steps + own).filter { $0 <= divergentStep }
    }
    return (steps.sorted() + (crashStep.map { [$0] } ?? [])).map(History.Entry.recorded)
  }
}

/// How a session fails, which a shrunk one must too.
enum ShrinkFailure: Equatable, CustomStringConvertible {
  /// The reducer crashes: with the first line of the reason (the Swift runtime's `file:line:
  /// Fatal error: message`), or the signal when the host's log says nothing.
  case crash(signature: String)
  /// Step `step` changes `path` otherwise than the recording (array indices as `*`: removing
  /// actions moves elements).
  case divergence(step: Int, path: String)
  /// The predicate comes true.
  case predicate(StatePredicate)

  var description: String {
    switch self {
    case let .crash(signature): "the reducer crashes: \(signature)"
    case let .divergence(step, path):
      "step \(step) changes \(path) otherwise than the recording"
    case let .predicate(predicate): "\(predicate.text) comes true"
    }
  }

  /// Whether running a history showed this failure.
  func isShown(by observation: Shrinker.Observation) -> Bool {
    switch (self, observation) {
    case (.crash, .crashed(let crash)): ShrinkFailure.crash(crash) == self
    case (.predicate, .outcome(let outcome)): outcome.reached != nil
    case (.divergence, .outcome(let outcome)): ShrinkFailure.divergence(outcome) == self
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

  /// The failure an outcome shows: its first difference's first path, if it is a state's.
  static func divergence(_ outcome: HistoryOutcome) -> ShrinkFailure? {
    guard let first = outcome.differing.first, first.reason == "state", let step = first.step,
      let path = first.differences.first?.path
    else { return nil }
    return .divergence(step: step, path: generalized(path.description))
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

  init(trace: String, settings: VerifyCommand.HostSettings, predicate: StatePredicate?)
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
    let history = History(
      trace: trace, entries: units.entries(chosen),
      comparison: comparing ? .recordedChange : .nothing, until: predicate,
      stopsAtFirstDifference: comparing, comparedStep: units.divergentStep, output: output)
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
      let failure = ShrinkFailure.divergence(outcome), case let .divergence(step, _) = failure
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

  /// The 1-minimal set of units that fails as `failure`.
  func shrink(_ failure: ShrinkFailure) throws(ShrinkError) -> [Int] {
    do {
      return try DeltaDebugging.minimize(units.candidates) { chosen in
        try reproduces(failure, with: chosen)
      }
    } catch let error as ShrinkError {
      throw error
    } catch {
      preconditionFailure("only ShrinkError is thrown")
    }
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
