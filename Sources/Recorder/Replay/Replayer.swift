import Architecture
import Foundation
import TraceJSON
import Synchronization

/// Replays a trace through today's reducer and reports where it diverges from the recording.
///
/// ```swift
/// let report = try Replayer(reducer: TodosFeature()).replay(tracePath: "Traces/todos.ndjson")
/// if let divergence = report.firstDivergence {
///   print(divergence.step, divergence.differences.map(\.path))
/// }
/// ```
///
/// Each step is reduced with the dependency values it read when recorded (`uuid`, `date`,
/// `withRandomNumberGenerator`), so an unchanged reducer reproduces the recording exactly.
/// Effects are compared, not run: how many `.run` effects each step starts and the
/// cancellation ids it cancels and marks; the actions they sent are in the trace, and are
/// replayed in their recorded order. So are the dependency values read, by kind and count.
/// States are compared as the recorder encodes them, at JSON-path granularity. A value
/// redacted in the trace is unknown, never a difference: a step whose action or state holds
/// one and that differs is counted in ``ReplayReport/unknown``. A trace that ends in a crash
/// has its crashing step's action sent last (see ``ReplayReport/recordedCrash``): a reducer
/// that still crashes there ends the process, which only a replay host survives.
///
/// In ``ReplayMode/isolated`` mode the reducer is called from several threads at once.
package struct Replayer<Base: Reducer>
where Base.State: Codable, Base.Action: Codable {
  /// How a replay runs and what its report keeps.
  package struct Options: Sendable {
    /// Isolated (parallel, every divergence) or cumulative (one run, the first divergence).
    package var mode: ReplayMode
    /// How many divergences the report details; all of them are counted.
    package var maximumDivergences: Int
    /// How many steps before a divergence its report lists.
    package var precedingSteps: Int
    /// How many threads reduce in isolated mode; by default, one per core.
    package var workers: Int
    /// Called with the number of steps replayed so far after each step, on the thread that
    /// replayed it (a replay thread, in isolated mode): a host's sign of life while a slow
    /// reducer works. Keep it cheap.
    package var progress: (@Sendable (Int) -> Void)?
    /// How many bytes of a trace with keyframes one replay thread reads at a time, about; tests
    /// make it small, to cut a short trace into many runs.
    package var runSize = 1 << 20

    /// Creates options; the defaults suit `tca-replay bisect`.
    package init(
      mode: ReplayMode = .isolated,
      maximumDivergences: Int = 1,
      precedingSteps: Int = 5,
      workers: Int = ProcessInfo.processInfo.activeProcessorCount,
      progress: (@Sendable (Int) -> Void)? = nil
    ) {
      self.mode = mode
      self.maximumDivergences = max(1, maximumDivergences)
      self.precedingSteps = max(0, precedingSteps)
      self.workers = max(1, workers)
      self.progress = progress
    }
  }

  /// The reducer to replay the trace through.
  package let reducer: Base
  /// How the replay runs.
  package var options: Options
  private let updateDependencies: @Sendable (inout DependencyValues) -> Void
  private let box: UncheckedBox<Base>

  /// Creates a replayer of `reducer`.
  ///
  /// - Parameters:
  ///   - reducer: Today's reducer, of the type the trace recorded.
  ///   - options: The mode and what the report keeps.
  ///   - withDependencies: Pins for dependencies the trace cannot hold (the app's clients), set
  ///     while states decode and steps reduce; the values the trace recorded win over them.
  package init(
    reducer: Base,
    options: Options = Options(),
    withDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) {
    self.reducer = reducer
    self.options = options
    self.updateDependencies = withDependencies
    self.box = UncheckedBox(reducer)
  }

  /// Replays the trace at `tracePath`.
  ///
  /// Every line is checked as ``CheckedTraceReader`` checks it, by the threads that parse it, so
  /// a malformed trace throws the first problem that every command reports for it.
  ///
  /// - Throws: ``ReplayError`` when the trace is missing or malformed; a reducer that
  ///   disagrees with the trace is a ``Divergence`` in the report, not an error.
  package func replay(tracePath: String) throws(ReplayError) -> ReplayReport {
    let header: TraceHeader
    var tally: Tally
    let warning: String?
    if options.mode == .isolated,
      case let first = try ReplayError.reading(TraceReader(path: tracePath).readHeader()),
      first.keyframeInterval > 0, let scanned = try replayOnScan(tracePath, header: first)
    {
      // Keyframes let every thread read, check and replay its own share of the trace, of each
      // segment of a rotated set; an incomplete last line is skipped, with the same warning.
      header = first
      (tally, warning) = scanned
    } else {
      // No keyframes, or a trace the scan hands back (a problem, a blank line): read on this
      // thread, checked, for the verdict every command gives.
      let (steps, first) = try CheckedTraceReader.openForReplay(tracePath)
      header = first
      switch options.mode {
      case .cumulative: tally = try replayCumulatively(steps, header: header)
      case .isolated: tally = try replayInIsolation(steps, header: header)
      }
      warning = steps.warning
    }
    tally.divergences.sort { $0.step < $1.step }
    var recordedCrash: RecordedCrash?
    // The crashing step comes last, so that a step before it that crashes is found first; in
    // cumulative mode, only when every step before it reproduced the recording.
    if let pending = tally.crash, options.mode == .isolated || tally.divergentSteps == 0 {
      recordedCrash = replayCrash(pending, header: header)
    }
    var report = ReplayReport(
      trace: tracePath, reducer: header.reducer, mode: options.mode, steps: tally.steps,
      replayed: tally.replayed, divergentSteps: tally.divergentSteps,
      divergences: Array(tally.divergences.prefix(max(0, options.maximumDivergences))),
      notReplayable: tally.skipped.sorted { $0.step.index < $1.step.index },
      unknown: tally.unknown,
      warnings: compatibilityWarnings(header).map { warningLine($0, file: tracePath) }
    )
    if let warning { report.warnings.append(warning) }
    report.notCompared = Self.notCompared(version: header.version)
    report.recordedCrash = recordedCrash
    if !tally.unpinnedReads.isEmpty { report.unpinnedReads = tally.unpinnedReads }
    return report
  }

  /// Sends the crashing step's action again, on this thread, with the feed a replay thread has.
  private func replayCrash(_ pending: PendingCrash, header: TraceHeader) -> RecordedCrash? {
    let engine = StepEngine(
      reducer: box.value, redactions: header.redactions, reusesMatchingStates: false,
      traceVersion: header.version
    )
    return engine.withFeed(over: DependencyValues._current, updateDependencies) {
      engine.runCrashed(pending.record, before: pending.before)
    }
  }

  /// What a trace of `version` does not record, and so a replay of it cannot compare.
  static func notCompared(version: Int) -> [String]? {
    if version < 2 {
      return ["effects (format version \(version) records them apart from their steps)"]
    }
    if version < 3 {
      return ["cancellation ids (format version \(version) does not record them)"]
    }
    if version < 4 {
      return [
        "cancellation ids (format version 3 wrote navigation ids with memory addresses, "
          + "which differ in every process)"
      ]
    }
    return nil
  }

  /// Warns when the trace was recorded from other types, or another build of them.
  private func compatibilityWarnings(_ header: TraceHeader) -> [String] {
    var warnings: [String] = []
    let stateType = recordedTypeName(Base.State.self)
    let actionType = recordedTypeName(Base.Action.self)
    if header.stateType != stateType || header.actionType != actionType {
      warnings.append(
        "the trace records \(header.stateType) and \(header.actionType); replaying with "
          + "\(stateType) and \(actionType)"
      )
    }
    let actionPrint = Fingerprint.of(typeName: actionType, sample: nil)
    var statePrint: String?
    // Decoded in the replay's dependencies: a default value may read a client the host pins.
    var scope = DependencyValues._current
    updateDependencies(&scope)
    let initialState = DependencyValues.$_current.withValue(scope) {
      try? JSONValueDecoder.replaying.decode(Base.State.self, from: header.initialState)
    }
    if let state = initialState, var json = try? JSONValueEncoder.recording.encode(state)
    {
      Redaction.apply(header.redactions, to: &json, isState: true)
      statePrint = Fingerprint.of(typeName: stateType, sample: json)
    }
    if statePrint.map({ $0 != header.fingerprint.state }) ?? true
      || actionPrint != header.fingerprint.action
    {
      let today = statePrint ?? "none: the initial state does not decode"
      warnings.append(
        "the trace's fingerprint (state \(header.fingerprint.state), action "
          + "\(header.fingerprint.action)) differs from today's (state \(today), action "
          + "\(actionPrint)): it was recorded by another build; replaying it anyway"
      )
    }
    return warnings
  }

  // MARK: Cumulative

  private func replayCumulatively(
    _ steps: CheckedTraceReader, header: TraceHeader
  ) throws(ReplayError) -> Tally {
    let engine = StepEngine(
      reducer: box.value, redactions: header.redactions, reusesMatchingStates: true,
      traceVersion: header.version
    )
    engine.learnTypes(from: header)
    var tally = Tally()
    var recent = RecentSteps(capacity: options.precedingSteps)
    let progress = options.progress
    let base = DependencyValues._current
    let result: Result<Void, ReplayError> = engine.withFeed(over: base, updateDependencies) {
      do throws(ReplayError) {
        while let recorded = try steps.nextReplayStep() {
          tally.steps += 1
          progress?(tally.steps)
          let outcome = engine.run(recorded, preceding: recent.summaries)
          recent.append(recorded.step)
          tally.add(outcome, keeping: 1)
          if case .diverged = outcome { break }
        }
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
    tally.crash = steps.crash
    tally.unpinnedReads = engine.unpinnedReads
    return tally
  }

  // MARK: Isolated

  /// One engine per replay thread, erased to a protocol so the threads capture no generic type.
  private func engines(_ header: TraceHeader) -> [UncheckedBox<any ChunkRunner>] {
    (0..<options.workers).map { _ in
      // Reusing a state the reducer produced is exact only when nothing was redacted.
      let engine = StepEngine(
        reducer: box.value, redactions: header.redactions,
        reusesMatchingStates: header.redactions.isEmpty, traceVersion: header.version
      )
      engine.learnTypes(from: header)
      return UncheckedBox<any ChunkRunner>(engine)
    }
  }

  /// Replays the trace on ``CheckedTraceReader/Scan/runs``: each run of lines, from a keyframe
  /// on, is read, checked and replayed by the thread that reads it; with the warning about an
  /// incomplete last line. `nil` when the scan hands the trace back to the checked reader.
  private func replayOnScan(_ path: String, header: TraceHeader) throws(ReplayError)
    -> (Tally, warning: String?)?
  {
    let engines = engines(header)
    let results = SharedTally()
    let replayed = ReplayedSteps(progress: options.progress)
    let base = DependencyValues._current
    let update = updateDependencies
    let (keep, context) = (max(0, options.maximumDivergences), options.precedingSteps)
    let (outcome, warning) = try ReplayError.reading(
      CheckedTraceReader.Scan.runs(
        path: path, threads: options.workers, runSize: options.runSize
      ) { run, thread in
        let tally = engines[thread].value.replay(
          run, over: base, update, keeping: keep, context: context, path: path,
          replayed: replayed)
        results.merge(tally, keeping: keep)
      })
    guard outcome == .complete else { return nil }
    var tally = results.total
    tally.unpinnedReads = engines.reduce([]) { UnpinnedRead.merged($0, $1.value.unpinnedReads) }
    return (tally, warning)
  }

  /// Starts one replay thread per worker; `finish` closes the queue and collects their tallies.
  private func startWorkers(_ header: TraceHeader) -> (queue: ChunkQueue, finish: () -> Tally) {
    let queue = ChunkQueue(
      capacity: options.workers * 4, replayed: ReplayedSteps(progress: options.progress))
    let results = SharedTally()
    let base = DependencyValues._current
    let keep = max(0, options.maximumDivergences)
    let context = options.precedingSteps
    let update = updateDependencies
    let done = DispatchSemaphore(value: 0)
    for (index, runner) in engines(header).enumerated() {
      let thread = Thread {
        let tally = runner.value.runChunks(
          from: queue, over: base, update, keeping: keep, context: context
        )
        results.merge(tally, keeping: keep)
        done.signal()
      }
      thread.name = "tca-replay replay \(index)"
      thread.stackSize = 8 << 20
      thread.start()
    }
    let workers = options.workers
    return (
      queue,
      {
        queue.close()
        for _ in 0..<workers { done.wait() }
        return results.total
      }
    )
  }

  /// Parses the trace on this thread and hands the steps, with their states, to the replay
  /// threads: for traces without keyframes.
  private func replayInIsolation(
    _ steps: CheckedTraceReader, header: TraceHeader
  ) throws(ReplayError) -> Tally {
    let (queue, finish) = startWorkers(header)
    var chunk = Chunk(earlier: [], keep: options.precedingSteps)
    var recent = RecentSteps(capacity: options.precedingSteps)
    var count = 0
    var failure: ReplayError?
    do throws(ReplayError) {
      while let recorded = try steps.nextReplayStep() {
        chunk.steps.append(recorded)
        recent.append(recorded.step)
        count += 1
        if chunk.steps.count == Chunk.size {
          queue.put(chunk)
          chunk = Chunk(earlier: recent.summaries, keep: options.precedingSteps)
        }
      }
    } catch {
      failure = error
    }
    if !chunk.steps.isEmpty { queue.put(chunk) }
    var tally = finish()
    if let failure { throw failure }
    tally.steps = count
    tally.crash = steps.crash
    return tally
  }
}

/// Holds a reducer for the replay threads; reducers are values that reduce without side
/// effects on themselves, as TCA requires.
// unchecked: the type's purpose: a reducer for the replay threads, unchanged by reducing
final class UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// The tallies of the replay threads, merged as each thread finishes.
final class SharedTally: Sendable {
  private let tally = Mutex(Tally())

  func merge(_ other: Tally, keeping: Int) {
    tally.withLock { $0.merge(other, keeping: keeping) }
  }

  var total: Tally { tally.withLock { $0 } }
}

/// What a replay found so far; merged across threads.
struct Tally {
  var steps = 0
  var replayed = 0
  var divergentSteps = 0
  var divergences: [Divergence] = []
  var skipped: [SkippedStep] = []
  var unknown = 0
  /// The crash record the trace ends in, found by the thread that read it; its step is
  /// replayed once every other step is.
  var crash: PendingCrash?
  /// The app's dependencies read with nothing pinning them, the first step of each.
  var unpinnedReads: [UnpinnedRead] = []

  mutating func add<Base>(_ outcome: StepEngine<Base>.Outcome, keeping: Int) {
    switch outcome {
    case .matched:
      replayed += 1
    case let .diverged(divergence):
      replayed += 1
      divergentSteps += 1
      // Chunks arrive in order on each thread, so the first `keeping` are the earliest here.
      if divergences.count < keeping { divergences.append(divergence) }
    case let .skipped(step):
      if skipped.count < 1_000 { skipped.append(step) }
    case .unknown:
      replayed += 1
      unknown += 1
    }
  }

  mutating func merge(_ other: Tally, keeping: Int) {
    replayed += other.replayed
    divergentSteps += other.divergentSteps
    divergences = Array((divergences + other.divergences).sorted { $0.step < $1.step }.prefix(keeping))
    steps += other.steps
    skipped += other.skipped
    unknown += other.unknown
    crash = crash ?? other.crash
    unpinnedReads = UnpinnedRead.merged(unpinnedReads, other.unpinnedReads)
  }
}
