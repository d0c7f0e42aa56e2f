#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Architecture
import TraceJSON

/// A trace read whole, with each step's recorded states: what a host runs histories of. A host
/// keeps the last one it read, since `shrink` asks for hundreds of histories of one trace.
final class LoadedRecording: Sendable {
  let path: String
  let header: TraceHeader
  let steps: [RecordedStep]
  /// Each step's position in ``steps``, by index.
  let positions: [Int: Int]
  /// The crash the trace ends in, if it names a step and holds its action.
  let crash: PendingCrash?
  /// The trace's `finished` and `cancelled` records in order, each with the index of the step
  /// record before it (`nil`: before the first), so that a written history keeps them.
  let effectEvents: [(afterStep: Int?, event: EffectEvent)]
  /// Everything the trace says of its types, header and steps merged.
  let schema: TypeSchema
  /// The file's size and modification time when read: a changed file is read again.
  let stamp: [Int]

  private init(path: String, stamp: [Int]) throws(ReplayError) {
    let (reader, header) = try CheckedTraceReader.openForReplay(path)
    var steps: [RecordedStep] = []
    var positions: [Int: Int] = [:]
    var schema = TypeSchema()
    schema.merge(header.types)
    var effectEvents: [(afterStep: Int?, event: EffectEvent)] = []
    var crash: PendingCrash?
    var before = reader.state
    while let record = try ReplayError.reading(reader.next()) {
      switch record {
      case let .step(step):
        positions[step.index] = steps.count
        schema.merge(step.types)
        steps.append(RecordedStep(step: step, before: before, after: reader.state))
      case let .effect(event) where event.event != .started:
        effectEvents.append((steps.last?.step.index, event))
      case let .crash(record):
        crash = PendingCrash(record, before: before)
      default:
        break
      }
      before = reader.state
    }
    self.path = path
    self.header = header
    self.steps = steps
    self.positions = positions
    self.effectEvents = effectEvents
    self.crash = crash.flatMap { $0.record.step != nil && $0.record.action != nil ? $0 : nil }
    self.schema = schema
    self.stamp = stamp
  }

  /// The trace at `path`: `cached` when the file has not changed since it was read.
  static func load(_ path: String, cached: LoadedRecording?) throws(ReplayError) -> LoadedRecording {
    var info = stat()
    let stamp =
      stat(path, &info) == 0
      ? [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
      : []
    if let cached, cached.path == path, !stamp.isEmpty, cached.stamp == stamp { return cached }
    return try LoadedRecording(path: path, stamp: stamp)
  }
}

/// Runs a ``History`` through today's reducer, cumulatively from the trace's initial state, on
/// the calling thread, comparing each step with the recording and writing the history as a
/// trace when asked.
///
/// Each recorded step reads the dependency values it read when recorded; a new action reads
/// the ones its entry carries (the recording's next values, chosen by `tca-replay`), then
/// stand-ins. Effects are not run: the actions they sent are steps of the history, like any.
/// A reducer that crashes ends the process; the host's crash handler names the entry.
struct HistoryRunner<Base: Reducer> where Base.State: Codable, Base.Action: Codable {
  let reducer: Base
  let updateDependencies: @Sendable (inout DependencyValues) -> Void

  /// How many paths of each differing step an outcome details.
  static var detailedPaths: Int { 10 }

  func run(_ history: History, in recording: LoadedRecording) throws -> HistoryOutcome {
    let header = recording.header
    let encoder = JSONValueEncoder.recording
    let decoder = JSONValueDecoder.replaying
    var standIns = RedactedStandIns(schema: recording.schema)
    if header.redactions.isEmpty { standIns = RedactedStandIns(schema: TypeSchema()) }
    func decodable(_ json: JSONValue, type: String) -> JSONValue {
      header.redactions.isEmpty ? json : standIns.replacing(in: json, type: type)
    }

    // A condition's printed value is read by the recording's types: `.completed` is its raw value.
    let until = history.until?.typed(stateType: header.stateType, schema: recording.schema)
    // Every entry is resolved before any is reduced: a bad request fails whole.
    let resolved = try history.entries.enumerated().map { position, entry in
      try resolve(entry, position: position, in: recording)
    }
    let feed = DependencyFeed()
    var values = DependencyValues._current
    updateDependencies(&values)
    feed.install(into: &values)
    let scope = values
    // Decoded in the replay's dependencies: a state's default values may read a client, which
    // must get the host's pin, never its live value.
    var state = try DependencyValues.$_current.withValue(scope) {
      try decoder.decode(
        Base.State.self, from: decodable(header.initialState, type: header.stateType))
    }
    var stateJSON = try encoded(state, encoder, header.redactions)
    // Decoded up front, so that the written trace's types cover every action in it: a crash
    // record's action, which the recording never described, and new actions.
    let actions = DependencyValues.$_current.withValue(scope) {
      resolved.map { entry in
        try? decoder.decode(
          Base.Action.self, from: decodable(entry.action, type: header.actionType))
      }
    }
    let output = try history.output.map { path in
      var schema = recording.schema
      let capture = TypeCapture(redactions: header.redactions)
      for action in actions.compactMap({ $0 }) { capture.learn(from: action, isState: false) }
      schema.merge(capture.takeNewFacts())
      return try HistoryOutput(
        path: path, header: header, initialState: stateJSON, schema: schema,
        effectEvents: recording.effectEvents)
    }

    var outcome = HistoryOutcome()
    var entryOfStep: [Int: Int] = [:]
    try DependencyValues.$_current.withValue(scope) {
      for (position, entry) in resolved.enumerated() {
        guard let action = actions[position] else {
          outcome.add(
            HistoryOutcome.Difference(
              entry: position, step: entry.step, reason: "actionDoesNotDecode",
              differences: [], count: 0))
          break
        }
        let before = stateJSON
        feed.load(entry.dependencies)
        CrashSite.reducing(position)
        var effect = Effect<Base.Action>.none
        _ = withIssueCapture {
          feed.withRecordedSettings { effect = reducer.reduce(into: &state, action: action) }
        }
        CrashSite.reducing(-1)
        stateJSON = try encoded(state, encoder, header.redactions)
        outcome.ran += 1

        var written = stateJSON
        let compared =
          history.comparedSteps.map { entry.step.map($0.contains) == true && entry.recorded != nil }
          ?? true
        if compared, let difference = compare(
          entry, position: position, before: before, after: stateJSON, history.comparison,
          recording
        ) ?? effectsDifference(
          entry, position: position, effect: effect, feed: feed, history.comparison,
          version: header.version
        ) {
          outcome.add(difference)
          // The recording's change is what the written trace keeps, so that a test made from
          // it expects what the recording did, and fails as today's reducer does.
          if history.comparison == .recordedChange, let expected = entry.expected(from: before) {
            written = expected
          }
        }
        if let recorded = entry.step { entryOfStep[recorded] = position }
        try output?.append(entry, position: position, before: before, after: written) {
          cause in cause.flatMap { entryOfStep[$0] }
        }
        if until?.holds(in: stateJSON) == true {
          outcome.reached = position
          break
        }
        if history.stopsAtFirstDifference, outcome.differingCount > 0 { break }
      }
    }
    try output?.finish(steps: outcome.ran)
    outcome.wrote = output != nil
    return outcome
  }

  private func encoded(
    _ state: Base.State, _ encoder: JSONValueEncoder, _ redactions: [Redaction]
  ) throws -> JSONValue {
    var json = try encoder.encode(state)
    Redaction.apply(redactions, to: &json, isState: true)
    return json
  }

  /// How the step at `position` differs from the recording, if it does.
  private func compare(
    _ entry: ResolvedEntry, position: Int, before: JSONValue, after: JSONValue,
    _ comparison: History.Comparison, _ recording: LoadedRecording
  ) -> HistoryOutcome.Difference? {
    let reference: JSONValue
    switch comparison {
    case .nothing:
      return nil
    case .recordedChange:
      guard entry.recorded != nil else { return nil }
      guard let expected = entry.expected(from: before) else {
        return HistoryOutcome.Difference(
          entry: position, step: entry.step, reason: "changeDoesNotApply", differences: [],
          count: 0)
      }
      reference = expected
    case .recordedState:
      if let recorded = entry.recorded {
        reference = recorded.after
      } else if let after = entry.after, let index = recording.positions[after] {
        reference = recording.steps[index].after
      } else {
        reference = recording.header.initialState
      }
    }
    guard reference != after else { return nil }
    let differences = StateDifference.between(expected: reference, actual: after)
    guard !differences.isEmpty else { return nil }
    return HistoryOutcome.Difference(
      entry: position, step: entry.step, reason: "state",
      differences: Array(differences.prefix(Self.detailedPaths)), count: differences.count)
  }

  /// How the step's effects, then its reads of generated values, differ from the recording's,
  /// for a `recordedChange` comparison: what `verify` reports of a step whose state matches.
  private func effectsDifference(
    _ entry: ResolvedEntry, position: Int, effect: Effect<Base.Action>, feed: DependencyFeed,
    _ comparison: History.Comparison, version: Int
  ) -> HistoryOutcome.Difference? {
    guard comparison == .recordedChange, let recorded = entry.recorded?.step else { return nil }
    if let effects = StepEngine<Base>.effectsDifference(
      effect, recorded, comparesStarts: version >= 2, comparesCancellation: version >= 4)
    {
      return HistoryOutcome.Difference(
        entry: position, step: entry.step, reason: "effects", differences: [], count: 0,
        effects: effects)
    }
    if let reads = feed.readsDifference {
      return HistoryOutcome.Difference(
        entry: position, step: entry.step, reason: "dependencyReads", differences: [], count: 0,
        dependencyReads: reads)
    }
    return nil
  }

  private func resolve(
    _ entry: History.Entry, position: Int, in recording: LoadedRecording
  ) throws -> ResolvedEntry {
    switch entry {
    case let .recorded(index):
      if let at = recording.positions[index] {
        let recorded = recording.steps[at]
        guard let action = recorded.step.action else {
          throw HistoryRequestError(
            "history[\(position)]: step \(index)'s action was not recorded (it did not encode)")
        }
        return ResolvedEntry(
          action: action, label: recorded.step.label, dependencies: recorded.step.dependencies,
          step: index, after: nil, recorded: recorded)
      }
      if let crash = recording.crash, crash.record.step == index, let action = crash.record.action {
        // The step the recording crashed in: its action, which read nothing the trace kept.
        return ResolvedEntry(
          action: action, label: crash.record.label ?? "(crashed)", dependencies: [],
          step: index, after: nil, recorded: nil)
      }
      throw HistoryRequestError(
        "history[\(position)]: \(recording.path) has no step \(index) with an action")
    case let .new(action, label, dependencies, after):
      return ResolvedEntry(
        action: action, label: label, dependencies: dependencies, step: nil, after: after,
        recorded: nil)
    }
  }
}

/// A history's entry with what the recording says of it.
struct ResolvedEntry {
  var action: JSONValue
  var label: String
  var dependencies: [DependencyValue]
  /// The recorded step run, or the crash record's.
  var step: Int?
  /// For a new action: the recorded step it follows.
  var after: Int?
  var recorded: RecordedStep?

  /// The state before it with the recorded step's change made to it; `nil` for a new action,
  /// or when the change does not fit `before`.
  ///
  /// Where `before` is the recorded state before the step, that is the recorded state after
  /// it. Elsewhere (a history without some of the recording's steps), a number the step
  /// replaced changes by as much as it did when recorded (a count that went from 7 to 10 goes
  /// from 1 to 4), so that a count kept since the start need not keep every step that counted.
  /// Any other value the step replaced must hold what it held when recorded, or the change does
  /// not fit: the step ran from another state, and what it should do there is unknown.
  func expected(from before: JSONValue) -> JSONValue? {
    guard let recorded else { return nil }
    if before == recorded.before { return recorded.after }
    var operations: [JSONPatch.Operation] = []
    for operation in recorded.step.patch.operations {
      switch operation {
      case .test:
        continue  // Checked below, at each replace, with numbers allowed to differ.
      case let .replace(path, value):
        guard let old = path.resolve(in: recorded.before), let now = path.resolve(in: before)
        else { return nil }
        if let moved = Self.shifted(now, by: old, to: value) {
          operations.append(.replace(path: path, value: moved))
        } else {
          guard now == old else { return nil }
          operations.append(operation)
        }
      default:
        operations.append(operation)
      }
    }
    return try? JSONPatch(operations).apply(to: before)
  }

  /// `now` changed as `old` changed to `new`, when all three are numbers.
  private static func shifted(_ now: JSONValue, by old: JSONValue, to new: JSONValue) -> JSONValue? {
    if case let .integer(now) = now, case let .integer(old) = old, case let .integer(new) = new {
      let (difference, overflow) = new.subtractingReportingOverflow(old)
      let (sum, overflows) = now.addingReportingOverflow(difference)
      return overflow || overflows ? nil : .integer(sum)
    }
    guard let now = now.doubleValue, let old = old.doubleValue, let new = new.doubleValue else {
      return nil
    }
    return .double(now + (new - old))
  }
}

extension HistoryOutcome {
  /// How many differing steps an outcome details.
  static var detailedSteps: Int { 20 }

  mutating func add(_ difference: Difference) {
    differingCount += 1
    if differing.count < Self.detailedSteps { differing.append(difference) }
  }
}

/// A history written as a trace as it runs: a line per step, each written as soon as the
/// reducer returns, so that a reducer that crashes leaves every step before it on disk.
///
/// It keeps what a recording of the history would hold: the recorded effects' ends, each after
/// the step it followed when recorded, renumbered to the history's steps, and keyframes.
final class HistoryOutput {
  private let descriptor: Int32
  private let path: String
  /// The last step's time: the end record's.
  private var lastTime = 0.0
  /// The recording's effect ends, and how many of them are behind us.
  private let effectEvents: [(afterStep: Int?, event: EffectEvent)]
  private var nextEvent = 0
  /// The history's step that started each recorded effect it ran, by effect number.
  private var startedBy: [Int: Int] = [:]
  /// The recorded step of the last entry written: effect ends up to it are written.
  private var lastRecorded: Int?
  private let keyframeInterval: Int
  /// Bytes of step and effect records since the last full state, and that state's bytes.
  private var bytesSinceKeyframe = 0
  private var stateBytes = 0
  private var stepsWritten = 0

  init(
    path: String, header: TraceHeader, initialState: JSONValue, schema: TypeSchema,
    effectEvents: [(afterStep: Int?, event: EffectEvent)] = []
  ) throws {
    descriptor = PrivateFile.open(path)
    guard descriptor >= 0 else {
      throw HistoryRequestError("\(path): cannot write (\(String(cString: strerror(errno))))")
    }
    self.path = path
    self.effectEvents = effectEvents
    keyframeInterval = header.keyframeInterval
    var header = header
    header.firstStep = 0
    header.initialState = initialState
    header.types = schema.types.isEmpty ? nil : schema.json
    try writeRecord(TraceRecord.header(header))
    var stateText: [UInt8] = []
    initialState.serialize(into: &stateText)
    stateBytes = stateText.count
  }

  deinit { close(descriptor) }

  func append(
    _ entry: ResolvedEntry, position: Int, before: JSONValue, after: JSONValue,
    entryOfCause: (Int?) -> Int?
  ) throws {
    let recorded = entry.recorded?.step
    if let index = recorded?.index {
      // The ends recorded before this step, of effects the history started.
      try writeEffectEvents { $0 == nil || $0! < index }
      lastRecorded = index
    }
    var origin = TraceStep.Origin.send
    if case let .effect(cause)? = recorded?.origin { origin = .effect(cause: entryOfCause(cause)) }
    var step = TraceStep(
      index: position, time: recorded?.time ?? 0, origin: origin, action: entry.action,
      label: entry.label, patch: JSONPatch.diff(from: before, to: after),
      dependencies: entry.dependencies)
    step.time = recorded?.time ?? lastTime
    lastTime = step.time
    step.clock = recorded?.clock
    step.effects = recorded?.effects ?? []
    step.cancels = recorded?.cancels ?? []
    step.cancellable = recorded?.cancellable ?? []
    for effect in step.effects { startedBy[effect] = position }
    bytesSinceKeyframe += try writeRecord(.step(step))
    stepsWritten += 1
    // As the recorder does: every K steps, once the records since the last full state are
    // `keyframeSpacing` times its size.
    if keyframeInterval > 0, stepsWritten % keyframeInterval == 0,
      bytesSinceKeyframe >= RecordingSession<Bool, Bool>.keyframeSpacing * stateBytes
    {
      stateBytes = try writeRecord(.keyframe(TraceKeyframe(index: position, state: after)))
      bytesSinceKeyframe = 0
    }
  }

  /// Writes the effect ends not yet written whose recorded place `isBefore` accepts, renumbered;
  /// the ends of effects the history never started are passed over.
  private func writeEffectEvents(_ isBefore: (Int?) -> Bool) throws {
    while nextEvent < effectEvents.count, isBefore(effectEvents[nextEvent].afterStep) {
      var event = effectEvents[nextEvent].event
      nextEvent += 1
      guard let step = startedBy[event.effect] else { continue }
      event.step = step
      event.time = max(event.time, lastTime)
      lastTime = event.time
      bytesSinceKeyframe += try writeRecord(.effect(event))
    }
  }

  func finish(steps: Int) throws {
    // The ends recorded up to the last step run; later ones belong to steps the history lacks.
    if let lastRecorded { try writeEffectEvents { $0 != nil && $0! <= lastRecorded } }
    try writeRecord(.end(TraceEnd(steps: steps, time: lastTime)))
  }

  /// Writes one record's line; returns its bytes.
  @discardableResult
  private func writeRecord(_ record: TraceRecord) throws -> Int {
    var bytes: [UInt8] = []
    record.serialize(into: &bytes)
    bytes.append(UInt8(ascii: "\n"))
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        throw HistoryRequestError("\(path): cannot write (\(String(cString: strerror(errno))))")
      }
      offset += count
    }
    return bytes.count
  }
}
