import Architecture
import TraceJSON

/// Replays single steps through a reducer: decodes, feeds dependencies, reduces, encodes,
/// compares. One engine per thread: it owns the dependency feed that thread reads.
final class StepEngine<Base: Reducer> where Base.State: Codable, Base.Action: Codable {
  enum Outcome {
    case matched
    case diverged(Divergence)
    case skipped(SkippedStep)
    case unknown
  }

  let reducer: Base
  let feed = DependencyFeed()
  /// Listens while a step decodes and reduces, for reads of the app's unpinned clients.
  private let tap = DependencyTap()
  /// The app's dependencies read with nothing pinning them, the first step of each.
  private(set) var unpinnedReads: [UnpinnedRead] = []
  private let encoder = JSONValueEncoder.recording
  private let decoder = JSONValueDecoder.replaying
  private let redactions: [Redaction]
  /// Whether a state the reducer produced may stand in for the recorded state it encodes to.
  private let reusesMatchingStates: Bool
  /// The reducer's own state before step `index`, kept when it reproduced the recording, with
  /// the differ that knows its encoding (for large states).
  private var carried: (index: Int, state: Base.State, differ: StateDiffer<Base.State>?)?
  /// States with at least this many JSON values are walked rather than encoded whole, as the
  /// recorder does: a walk skips unchanged rows by comparing Swift values, which pays off for
  /// large states; small ones are cheaper to encode whole.
  static var minimumWalkSize: Int { StateDiffer<Base.State>.walkThreshold }
  /// The last few actions decoded, by their JSON: apps send the same actions again and again.
  private var recentActions: [(json: JSONValue, action: Base.Action)] = []

  /// Values of the declared types for redacted ones, and the trace's names of the types: set
  /// by the replayer from the header; each step's `types` add to it.
  var standIns = RedactedStandIns(schema: TypeSchema())
  /// What the trace says of its types so far: differences are reported as values are shown.
  var types = TypeSchema()
  var stateTypeName = ""
  var actionTypeName = ""

  /// Whether the trace records how many effects each step started (version 2 on).
  private let comparesStarts: Bool
  /// Whether the trace records the cancellation ids of each step's effect (version 3 on).
  private let comparesCancellation: Bool

  init(reducer: Base, redactions: [Redaction], reusesMatchingStates: Bool, traceVersion: Int) {
    self.reducer = reducer
    self.redactions = redactions
    self.reusesMatchingStates = reusesMatchingStates
    comparesStarts = traceVersion >= 2
    comparesCancellation = traceVersion >= 4
  }

  func run(_ recorded: RecordedStep, preceding: @autoclosure () -> [StepSummary]) -> Outcome {
    let (values, outcome) = tap.listen { runStep(recorded, preceding: preceding()) }
    noteUnpinnedReads(values, step: recorded.step.index)
    return outcome
  }

  /// Notes the reads of `values` that nothing pinned, when their key is new to this engine.
  func noteUnpinnedReads(_ values: [DependencyTap.Value], step: Int) {
    for case let .client(key, property, isSet) in values where !isSet {
      guard !unpinnedReads.contains(where: { $0.key == key }) else { continue }
      unpinnedReads.append(UnpinnedRead(step: step, key: key, property: property))
    }
  }

  private func runStep(
    _ recorded: RecordedStep, preceding: @autoclosure () -> [StepSummary]
  ) -> Outcome {
    let step = recorded.step
    // A replay host that crashes from here on names this step (CrashSite).
    CrashSite.reducing(step.index)
    defer {
      CrashSite.reducing(-1)
      if carried?.index != step.index + 1 { carried = nil }
    }
    func divergence(
      _ reason: Divergence.Reason,
      differences: [StateDifference] = [],
      codingPath: String? = nil,
      message: String? = nil,
      issues: [String] = [],
      effects: EffectsDifference? = nil,
      reads: DependencyReadsDifference? = nil
    ) -> Outcome {
      .diverged(
        Divergence(
          step: step.index, label: step.label, action: step.action,
          origin: StepOrigin(step.origin), reason: reason, differences: differences,
          codingPath: codingPath, message: message, precedingSteps: preceding(),
          extraDependencyReads: feed.extraReads, unreadDependencyValues: feed.unreadValues,
          issues: issues, effects: effects, dependencyReads: reads
        )
      )
    }

    guard let actionJSON = step.action else {
      return .skipped(
        SkippedStep(step: StepSummary(step), reason: "the action could not be encoded when recorded")
      )
    }
    if let learnt = step.types {
      types.merge(learnt)
      if !redactions.isEmpty { standIns.schema.merge(learnt) }
    }
    let action: Base.Action
    // Equal JSON decodes to an equal action, so a recent decoding is reused.
    if let recent = recentActions.first(where: { $0.json == actionJSON }) {
      action = recent.action
    } else {
      do {
        // Redacted values become values of their declared types, so that the action decodes.
        let decodable =
          redactions.isEmpty ? actionJSON : standIns.replacing(in: actionJSON, type: actionTypeName)
        action = try decoder.decode(Base.Action.self, from: decodable)
      } catch {
        let failure = DecodingFailure(error, in: actionJSON)
        if failure.isRedacted(in: actionJSON) {
          return .skipped(
            SkippedStep(step: StepSummary(step), reason: "the action holds redacted values")
          )
        }
        return divergence(
          .actionDoesNotDecode, codingPath: failure.path, message: failure.message
        )
      }
      if recentActions.count == 8 { recentActions.removeLast() }
      recentActions.insert((actionJSON, action), at: 0)
    }

    var state: Base.State
    // A large state is encoded the way the recorder does it, walking only what changed, and
    // then an unchanged reducer's patch is the recorded patch; a small one is encoded whole.
    var differ: StateDiffer<Base.State>?
    var beforeIsRecorded = false
    // Taken out, not copied: the reducer then mutates a uniquely held state in place.
    if carried?.index == step.index, let held = carried.take() {
      state = held.state
      differ = held.differ
      beforeIsRecorded = true
    } else {
      do {
        // Redacted values become values of their declared types, so that the state decodes.
        let decodable =
          redactions.isEmpty
          ? recorded.before : standIns.replacing(in: recorded.before, type: stateTypeName)
        state = try decoder.decode(Base.State.self, from: decodable)
      } catch {
        let failure = DecodingFailure(error, in: recorded.before)
        if failure.isRedacted(in: recorded.before) { return .unknown }
        return divergence(
          .stateDoesNotDecode, codingPath: failure.path, message: failure.message
        )
      }
      if recorded.before.nodeCount >= Self.minimumWalkSize {
        differ = try? StateDiffer(initialState: state, redactions: redactions)
      }
    }

    feed.load(step.dependencies)
    var effect = Effect<Base.Action>.none
    let issues = withIssueCapture {
      feed.withRecordedSettings {
        effect = reducer.reduce(into: &state, action: action)  // Compared, never run.
      }
    }
    let effects = effectsDifference(effect, step)
    let reads = feed.readsDifference
    var actual: JSONValue
    var patchMatches = false
    do {
      if var walking = differ {
        differ = nil  // One reference, so the differ's state is not copied on write.
        let patch = try walking.advance(to: state)
        actual = walking.json
        // The same patch on the same recorded state gives the same recorded state.
        patchMatches = beforeIsRecorded && patch == step.patch
        differ = walking
      } else {
        actual = try encoder.encode(state)
        Redaction.apply(redactions, to: &actual, isState: true)
      }
    } catch {
      return divergence(.stateDoesNotEncode, message: "\(error)")
    }
    let differences: [StateDifference]
    if patchMatches || actual == recorded.after {
      if reusesMatchingStates {
        // A state that grew large while carried switches to walking, checked now and then.
        if differ == nil, step.index % 64 == 0, actual.nodeCount >= Self.minimumWalkSize {
          differ = try? StateDiffer(initialState: state, redactions: redactions)
        }
        carried = (step.index + 1, state, differ)
      }
      if effects == nil && reads == nil { return .matched }
      differences = []
    } else {
      differences = StateDifference.between(
        expected: recorded.after, actual: actual,
        type: stateTypeName.isEmpty ? nil : stateTypeName, schema: types)
      // Only redacted values differ: unknown, not a divergence.
      if differences.isEmpty && effects == nil && reads == nil { return .unknown }
    }
    if !redactions.isEmpty, readsRedactedData(recorded, action: actionJSON) { return .unknown }
    let reason: Divergence.Reason =
      !differences.isEmpty ? .state : effects != nil ? .effects : .dependencyReads
    return divergence(
      reason, differences: differences, issues: issues.map(\.message), effects: effects,
      reads: reads
    )
  }

  /// How the effect today's reducer returned differs from what the step recorded, as far as
  /// the trace's version records it; `nil` when it does not.
  private func effectsDifference(
    _ effect: Effect<Base.Action>, _ step: TraceStep
  ) -> EffectsDifference? {
    Self.effectsDifference(
      effect, step, comparesStarts: comparesStarts, comparesCancellation: comparesCancellation)
  }

  /// How `effect` differs from what `step` recorded, comparing starts and, when the trace's
  /// version records them, cancellation ids; `nil` when it does not.
  static func effectsDifference(
    _ effect: Effect<Base.Action>, _ step: TraceStep, comparesStarts: Bool,
    comparesCancellation: Bool
  ) -> EffectsDifference? {
    guard comparesStarts else { return nil }
    // Most steps return `.none` and record nothing: no tree to walk, no ids to print.
    if effect.isNone, step.effects.isEmpty, step.cancels.isEmpty, step.cancellable.isEmpty {
      return nil
    }
    let starts = effect.runCount
    let facts = comparesCancellation && !effect.isNone ? effect.cancellation : nil
    let cancels = facts.map { $0.isEmpty ? [] : $0.cancels } ?? []
    let cancellable = facts.map { $0.isEmpty ? [] : $0.cancellable } ?? []
    let same =
      starts == step.effects.count
      && (!comparesCancellation || (cancels == step.cancels && cancellable == step.cancellable))
    guard !same else { return nil }
    return EffectsDifference(
      recordedStarts: step.effects.count, replayedStarts: starts,
      recordedCancels: comparesCancellation ? step.cancels : nil, replayedCancels: cancels,
      recordedCancellable: comparesCancellation ? step.cancellable : nil,
      replayedCancellable: cancellable
    )
  }

  /// Whether a step that disagrees with the recording read redacted data, which would explain
  /// the disagreement: then its outcome is unknown, never a divergence.
  ///
  /// A step whose action holds a redacted value read it. A step whose state before holds one
  /// is run again with other stand-ins for the redacted values (an empty string, an
  /// address-like string); if anything it computes changes with them, it read redacted data.
  /// If nothing changes, the disagreement does not come from the redacted values, and is
  /// reported.
  private func readsRedactedData(_ recorded: RecordedStep, action actionJSON: JSONValue) -> Bool {
    if actionJSON.containsRedaction { return true }
    guard recorded.before.containsRedaction else { return false }
    // The empty stand-in would show where the others are hidden: hidden too, to compare.
    return Redaction.$hidesEmpty.withValue(true) { readsRedactedState(recorded, actionJSON) }
  }

  private func readsRedactedState(_ recorded: RecordedStep, _ actionJSON: JSONValue) -> Bool {
    guard let action = try? decoder.decode(Base.Action.self, from: actionJSON),
      let outcome = self.outcome(of: action, from: recorded.before, step: recorded.step)
    else { return true }
    // The first stand-in is the placeholder itself, as the first run had it.
    for standIn in ["", "redacted@example.com"] {
      var before = recorded.before
      before.replaceRedacted(with: .string(standIn))
      guard let other = self.outcome(of: action, from: before, step: recorded.step),
        other == outcome
      else { return true }
    }
    return false
  }

  /// What the reducer computes from `before`: the state as the recorder would write it, what
  /// its effect starts and cancels, and what it reads; `nil` when the state does not decode.
  private func outcome(
    of action: Base.Action, from before: JSONValue, step: TraceStep
  ) -> StepOutcome? {
    guard var state = try? decoder.decode(Base.State.self, from: before) else { return nil }
    feed.load(step.dependencies)
    var effect = Effect<Base.Action>.none
    _ = withIssueCapture {
      feed.withRecordedSettings { effect = reducer.reduce(into: &state, action: action) }
    }
    guard var json = try? encoder.encode(state) else { return nil }
    Redaction.apply(redactions, to: &json, isState: true)
    return StepOutcome(
      state: json, effects: effectsDifference(effect, step), reads: feed.readsDifference
    )
  }

  /// What a step computed, for comparing runs with different stand-ins.
  struct StepOutcome: Equatable {
    var state: JSONValue
    var effects: EffectsDifference?
    var reads: DependencyReadsDifference?
  }

  /// Runs `body` with this engine's feed installed over `base`, on the calling thread.
  func withFeed<R>(
    over base: DependencyValues,
    _ update: (inout DependencyValues) -> Void,
    _ body: () throws -> R
  ) rethrows -> R {
    var values = base
    update(&values)
    feed.install(into: &values)
    return try DependencyValues.$_current.withValue(values, operation: body)
  }
}

/// A `DecodingError` taken apart: where the value was and what was wrong with it.
struct DecodingFailure {
  var codingPath: [any CodingKey]
  var path: String
  var message: String

  init(_ error: any Error, in document: JSONValue) {
    self.init(error)
    // Synthesized enum decoding only says "Invalid number of keys found, expected one." when
    // a case is gone or renamed: name the case the recording holds.
    if message.contains("Invalid number of keys"), case let .object(members)? = value(in: document),
      members.count == 1, let name = members.keys.first
    {
      message = "no case \"\(name)\" in today's type (\(message))"
    }
  }

  init(_ error: any Error) {
    guard let error = error as? DecodingError else {
      codingPath = []
      path = "the top level"
      message = "\(error)"
      return
    }
    switch error {
    case let .keyNotFound(key, context):
      codingPath = context.codingPath + [key]
      message = "no value for \"\(key.stringValue)\": \(context.debugDescription)"
    case let .typeMismatch(_, context), let .valueNotFound(_, context),
      let .dataCorrupted(context):
      codingPath = context.codingPath
      message = context.debugDescription
    @unknown default:
      codingPath = []
      message = "\(error)"
    }
    path = JSONCodingPathComponent.render(codingPath)
  }

  /// The recorded value at the coding path, if it is there.
  func value(in document: JSONValue) -> JSONValue? {
    var value = document
    for key in codingPath {
      if let index = key.intValue, key.stringValue == "Index \(index)" {
        guard let next = value[index] else { return nil }
        value = next
      } else {
        guard let next = value[key.stringValue] else { return nil }
        value = next
      }
    }
    return value
  }

  /// Whether the value that failed to decode, or one around it, was redacted when recorded.
  func isRedacted(in document: JSONValue) -> Bool {
    var value = document
    if value == Redaction.placeholder { return true }
    for key in codingPath {
      let next: JSONValue?
      if let index = key.intValue, key.stringValue == "Index \(index)" {
        next = value[index]
      } else {
        next = value[key.stringValue]
      }
      guard let next else { return false }
      if next == Redaction.placeholder { return true }
      value = next
    }
    return false
  }
}

/// A replay thread's work, free of the reducer's generic types.
protocol ChunkRunner: AnyObject {
  func runChunks(
    from queue: ChunkQueue, over base: DependencyValues,
    _ update: (inout DependencyValues) -> Void, keeping: Int, context: Int
  ) -> Tally

  func replay(
    _ lines: CheckedTraceReader.Scan.Run, over base: DependencyValues,
    _ update: (inout DependencyValues) -> Void, keeping: Int, context: Int, path: String,
    replayed: ReplayedSteps
  ) -> Tally

  /// The app's dependencies read with nothing pinning them, the first step of each.
  var unpinnedReads: [UnpinnedRead] { get }
}

extension StepEngine: ChunkRunner {
  /// Replays chunks until the queue is closed and empty.
  func runChunks(
    from queue: ChunkQueue, over base: DependencyValues,
    _ update: (inout DependencyValues) -> Void, keeping: Int, context: Int
  ) -> Tally {
    var tally = Tally()
    withFeed(over: base, update) {
      while let chunk = queue.take() {
        for (offset, recorded) in chunk.steps.enumerated() {
          tally.add(run(recorded, preceding: chunk.summaries(before: offset)), keeping: keeping)
          queue.replayed.add()
        }
      }
    }
    tally.unpinnedReads = unpinnedReads
    return tally
  }

  /// Replays a run of the scan: its records come checked, with the states the patches rebuild.
  func replay(
    _ lines: CheckedTraceReader.Scan.Run, over base: DependencyValues,
    _ update: (inout DependencyValues) -> Void, keeping: Int, context: Int, path: String,
    replayed: ReplayedSteps
  ) -> Tally {
    var tally = Tally()
    var recent = RecentSteps(capacity: context)
    // The steps before the run are read only for a divergence in its first few steps.
    var seen = 0
    func preceding() -> [StepSummary] {
      guard seen < context else { return recent.summaries }
      let earlier = lines.stepLines(before: context).compactMap { line -> StepSummary? in
        guard case let .step(step)? = try? TraceRecord(parsingLine: line, path: path, line: 0)
        else { return nil }
        return StepSummary(step)
      }
      return Array((earlier + recent.summaries).suffix(context))
    }
    withFeed(over: base, update) {
      lines.forEachRecord { record, before, after in
        guard case let .step(step) = record else {
          if case let .crash(crash) = record { tally.crash = PendingCrash(crash, before: before) }
          return
        }
        tally.steps += 1
        tally.add(
          run(RecordedStep(step: step, before: before, after: after), preceding: preceding()),
          keeping: keeping
        )
        recent.append(step)
        seen += 1
        replayed.add()
      }
    }
    return tally
  }
}

extension StepEngine {
  /// Takes the trace's type names and what its header says of the types, for stand-ins.
  func learnTypes(from header: TraceHeader) {
    stateTypeName = header.stateType
    actionTypeName = header.actionType
    standIns.schema.merge(header.types)
    types.merge(header.types)
  }
}
