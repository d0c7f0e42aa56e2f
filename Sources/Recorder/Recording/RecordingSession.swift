import Foundation
import TraceJSON

/// Turns recorded events into trace lines on the recorder's thread: encodes, redacts, diffs
/// against the previous state, and writes.
final class RecordingSession<State: Encodable, Action: Encodable> {
  private let sink: TraceSink
  private let options: TraceRecorder.Options
  private let encoder = JSONValueEncoder.recording
  private var differ: StateDiffer<State>
  private var stepCount = 0
  private var output: [UInt8] = []
  /// Bytes of step and effect records written since the last keyframe (or the header).
  private var bytesSinceKeyframe = 0
  /// Bytes of the last full state written, in the header or a keyframe.
  private var stateBytes = 0
  /// The header of the current segment, the template of the next one's.
  private var header: TraceHeader
  /// Bytes written to the current segment, and the index of its first step.
  private var segmentBytes = 0
  private var segmentFirstStep = 0
  /// The last few actions encoded, most recent first, for apps that send the same actions
  /// again and again. An action stored in the same bytes as one of them is the same value, and
  /// encodes the same. Not one merely `==` to it: `==` takes -0.0 for 0.0, and a precomposed
  /// `é` for a decomposed one, which encode apart.
  ///
  /// The actions live in a fixed buffer and their encodings in an array of a concrete type:
  /// an array of a generic element type looks up its type metadata on every access.
  private let recentActions = UnsafeMutablePointer<Action>.allocate(capacity: recentCapacity)
  private var recentEncodings: [RecentEncoding] = []
  private static var recentCapacity: Int { 4 }
  /// Whether actions are kept: for `Equatable` ones, values by the type's own account, rather
  /// than, say, classes whose instances change in place under the same reference.
  private let keepsActions = Action.self is any Equatable.Type
  /// The Swift types met so far, written as `types` where first met, for `gen-test`.
  private let typeCapture: TypeCapture
  private let actionTypeName = recordedTypeName(Action.self)
  private let stateTypeName = recordedTypeName(State.self)
  /// The patch paths (indices as `*`) whose new values made the state's types be learned.
  private var capturedPaths: Set<String> = []
  /// Paths the schema types as a standard scalar: a scalar put there is never news, so the
  /// next one skips resolving the path's type.
  private var scalarPaths: Set<JSONPointer> = []
  /// The last path found in `scalarPaths`: a small state changes the same member step after
  /// step, and comparing a path costs less than hashing it.
  private var lastScalarPath: JSONPointer?
  /// The first and last step whose lines are in `output`.
  private var outputSteps: ClosedRange<Int>?
  /// The header's line until a write of it succeeds: a trace starts with its header, however
  /// many writes fail first.
  private var unwrittenHeader: [UInt8]?
  /// Steps whose lines a failed write lost, declared in a `gap` record by the next write.
  private var gap: TraceGap?
  /// A write error not thrown yet: `process` goes on with the batch, then throws it.
  private var writeError: (any Error)?
  /// Whether the sink may start a new segment; a FIFO cannot.
  private var canRotate = true
  private let clock = SessionClock()
  private var lastWrite = 0.0
  private var lastMeasure = 0.0
  /// About how many bytes the state takes, for the queue's byte budget.
  private(set) var stateSize = 0
  /// Where previous states go to be freed on the app's thread, when they are large.
  private let retired: RetiredStates<State>?
  /// From this size on (in encoded bytes), previous states are handed back to the app's thread.
  static var retiringSize: Int { 64 * 1024 }

  /// Encodes the header, with `initialState`, and keeps the state for the first diff.
  init(
    sink: TraceSink,
    options: TraceRecorder.Options,
    reducer: String,
    reducerProperties: [String] = [],
    initialState: State,
    started: Date,
    retired: RetiredStates<State>? = nil
  ) throws {
    self.retired = retired
    self.sink = sink
    self.options = options
    typeCapture = TypeCapture(redactions: options.redactions)
    let differ = try StateDiffer(initialState: initialState, redactions: options.redactions)
    let state = differ.json
    self.differ = differ
    typeCapture.learn(from: initialState)
    let header = TraceHeader(
      version: traceFormatVersion,
      tool: "tca-replay \(toolVersion)",
      reducer: reducer,
      stateType: recordedTypeName(State.self),
      actionType: recordedTypeName(Action.self),
      fingerprint: SchemaFingerprint(
        state: Fingerprint.of(typeName: recordedTypeName(State.self), sample: state),
        action: Fingerprint.of(typeName: recordedTypeName(Action.self), sample: nil)
      ),
      started: ISO8601.string(from: started),
      keyframeInterval: options.keyframeInterval,
      redactions: options.redactions,
      metadata: options.metadata,
      firstStep: 0,
      initialState: state,
      types: typeCapture.takeNewFacts(),
      reducerProperties: reducerProperties
    )
    self.header = header
    if !options.redactions.isEmpty {
      RedactedStandIns.warnAboutUntypedRedactions(
        in: state, type: header.stateType, schema: typeCapture.schema)
    }
    stateBytes = append(.header(header))
    segmentBytes = stateBytes
    stateSize = stateBytes
    unwrittenHeader = output
    output.removeAll(keepingCapacity: true)
    // A header that cannot be written now is written before the next lines: `process` throws.
    flushOutput()
  }

  /// How often, at least, lines reach the sink while a batch is processed, in seconds.
  static var writeInterval: Double { 0.005 }

  /// Writes the events' lines. A write that fails does not stop the batch: its steps are
  /// declared lost by the next write that works, and the error is thrown at the end.
  func process(_ events: UnsafeMutableBufferPointer<RecorderEvent<State, Action>>) throws {
    guard let first = events.baseAddress else { return }
    for position in 0..<events.count {
      // Taken out of the batch rather than copied (a copy retained what the event holds, to
      // release it twice), leaving an event with nothing to release for the batch to destroy:
      // the differ's reference to a step's state is then the last one, and the state can be
      // handed to the app's thread to free (``RetiredStates``).
      let event = (first + position).move()
      (first + position).initialize(to: .end(time: 0))
      switch event {
      case let .step(step): record(step)
      case let .effect(effect): count(append(.effect(effect)))
      case let .end(time): count(append(.end(TraceEnd(steps: stepCount, time: time))))
      case .begin: break  // Consumed by the pipeline, which creates the session with it.
      }
      // A long batch of big steps still reaches the sink every few milliseconds.
      if !output.isEmpty, clock.elapsed - lastWrite >= Self.writeInterval { flushOutput() }
    }
    flushOutput()
    if clock.elapsed - lastMeasure >= 0.1 {
      lastMeasure = clock.elapsed
      stateSize = max(differ.json.jsonSize(upTo: 1 << 30), 1)
    }
    if let writeError {
      self.writeError = nil
      throw writeError
    }
  }

  private func record(_ step: RecorderEvent<State, Action>.Step) {
    startSegmentIfNeeded(before: step.index)
    let (action, label, actionMembers) = encode(step.action)
    let previous = differ.state
    // A state that stops encoding keeps the last good state; the step records no change.
    let patch = (try? differ.advance(to: step.state)) ?? JSONPatch()
    if let retired, stateSize >= Self.retiringSize {
      // Retired states hold at most a sixteenth of the queue's byte budget, and at least one.
      retired.retire(previous, keeping: max(1, min(16, options.queueByteLimit / 16 / stateSize)))
    }
    if addsValuesAtNewPaths(patch) { typeCapture.learn(from: step.state) }
    var traceStep = TraceStep(
          index: step.index,
          time: step.time,
          origin: step.origin,
          action: action,
          label: label,
          patch: patch,
          dependencies: step.dependencies.map(DependencyValue.init),
          effects: step.startedEffects,
          types: typeCapture.takeNewFacts(),
          cancels: step.cancellation?.cancels ?? [],
          cancellable: step.cancellation?.cancellable ?? []
        )
    traceStep.clock = step.clock
    let start = output.count
    TraceRecord.serialize(traceStep, actionMembers: actionMembers, into: &output)
    output.append(UInt8(ascii: "\n"))
    let stepBytes = output.count - start
    count(stepBytes)
    stepCount = step.index + 1
    outputSteps = (outputSteps?.lowerBound ?? step.index)...step.index
    // A keyframe every K steps, but only once the trace has grown by `keyframeSpacing` times the
    // last full state since it was written: a big state with small changes gets fewer
    // keyframes, so keyframes add at most a sixteenth to a trace.
    if options.keyframeInterval > 0, stepCount % options.keyframeInterval == 0,
      bytesSinceKeyframe >= Self.keyframeSpacing * stateBytes
    {
      let state = (try? differ.verified()) ?? differ.json
      stateBytes = append(.keyframe(TraceKeyframe(index: step.index, state: state)))
      segmentBytes += stateBytes
      bytesSinceKeyframe = 0
    }
  }

  /// How many times the size of the last full state the trace must grow by before the next
  /// keyframe. A writer spends at most 1/`keyframeSpacing` of its bytes on keyframes; a reader
  /// reaching a step parses one full state and at most half this many states' worth of step
  /// lines, going forwards from the keyframe before the step or backwards from the one after.
  static var keyframeSpacing: Int { 16 }

  /// Counts `bytes` of step and effect records toward the segment and the next keyframe.
  private func count(_ bytes: Int) {
    bytesSinceKeyframe += bytes
    segmentBytes += bytes
  }

  /// Starts a new file, with a header holding the current state, when the size limit says so.
  /// One that cannot be started is tried again at the next step; the trace goes on in the
  /// current file meanwhile.
  private func startSegmentIfNeeded(before index: Int) {
    guard isFull(nextStep: index, adding: 0) else { return }
    flushOutput()
    // Lost lines are declared by the write that works again, which starts a segment of its own.
    guard gap == nil, unwrittenHeader == nil else { return }
    startSegment(firstStep: index, initialState: differ.json)
  }

  /// Whether the segment has reached its limit before `nextStep`, with `bytes` more written.
  private func isFull(nextStep: Int, adding bytes: Int) -> Bool {
    guard let limit = options.limit, sink.rotate != nil, canRotate, nextStep > segmentFirstStep
    else {
      return false
    }
    switch limit {
    case let .rotate(maxBytes, _): return segmentBytes + bytes >= maxBytes
    case let .lastSteps(steps): return nextStep - segmentFirstStep >= max(1, steps)
    }
  }

  /// Starts a new file at the trace's path, whose header holds `initialState`, followed by
  /// `gapLine`, the `gap` record of lost steps when there is one: a segment that starts after
  /// lost steps starts at the first of them, with the state after them, so no segment grows
  /// past its limit by the gap's state.
  @discardableResult
  private func startSegment(
    firstStep: Int, initialState: JSONValue, then gapLine: [UInt8] = []
  ) -> Bool {
    guard let rotate = sink.rotate else { return false }
    var next = header
    next.firstStep = firstStep
    next.initialState = initialState
    // The fingerprint of the state this segment starts from, as a reader computes it from the
    // segment's own header: the first segment's told another build from this one.
    next.fingerprint.state = Fingerprint.of(
      typeName: recordedTypeName(State.self), sample: initialState)
    // Each segment reads alone: its header repeats every type learned so far.
    next.types = typeCapture.schema.types.isEmpty ? nil : typeCapture.schema.json
    var line: [UInt8] = []
    TraceRecord.header(next).serialize(into: &line)
    line.append(UInt8(ascii: "\n"))
    let headerBytes = line.count
    line += gapLine
    // The new file appears at the trace's path already holding its header.
    do {
      guard try rotate(line) else {
        canRotate = false
        return false
      }
    } catch {
      if writeError == nil { writeError = error }
      return false
    }
    header = next
    stateBytes = headerBytes
    segmentBytes = line.count
    bytesSinceKeyframe = 0
    segmentFirstStep = firstStep
    return true
  }

  /// The action's JSON (`nil` when it cannot be encoded), its label, and the two as the step's
  /// line holds them when they were kept, reusing a recent encoding of an equal action.
  private func encode(_ action: Action) -> (JSONValue?, String, [UInt8]?) {
    if keepsActions {
      let count = recentEncodings.count
      let size = MemoryLayout<Action>.size
      let recentActions = recentActions
      // A comparison of memory, which also costs far less than `==` run unspecialized.
      let found = withUnsafePointer(to: action) { action -> Int? in
        for position in 0..<count where memcmp(recentActions + position, action, size) == 0 {
          return position
        }
        return nil
      }
      if let found {
        let recent = recentEncodings[found]
        return (recent.json, recent.label, recent.members)
      }
    }
    var json: JSONValue?
    var label: String
    do {
      var encoded = try encoder.encode(action)
      Redaction.apply(options.redactions, to: &encoded, isState: false)
      // Mirror-based learning costs more than encoding: only for actions that hold news. What
      // the rules hide is no news: the capture learns nothing from it.
      if !typeCapture.schema.covers(encoded, type: actionTypeName) {
        typeCapture.learn(from: action, isState: false)
      }
      json = encoded
      label = ActionLabel.make(from: encoded, type: actionTypeName, schema: typeCapture.schema)
    } catch {
      // Recording never fails the app: the step keeps its label and is marked not replayable.
      label = Self.fallbackLabel(for: action)
    }
    guard keepsActions else { return (json, label, nil) }
    let members = TraceRecord.actionMembers(action: json, label: label)
    remember(action, RecentEncoding(json: json, label: label, members: members))
    return (json, label, members)
  }

  /// Whether `patch` puts in the state a value holding something the schema lacks (a list's
  /// first element, an optional's first value), at a path not seen before. The state's types
  /// are then learned again; checking the JSON first keeps that rare.
  private func addsValuesAtNewPaths(_ patch: JSONPatch) -> Bool {
    var isNew = false
    for operation in patch.operations {
      let path: JSONPointer
      let value: JSONValue
      switch operation {
      case let .add(pointer, added), let .replace(pointer, added):
        (path, value) = (pointer, added)
      default:
        continue
      }
      let isScalar: Bool
      switch value {
      case .object, .array: isScalar = false
      default: isScalar = true
      }
      if isScalar, path == lastScalarPath { continue }
      if isScalar, scalarPaths.contains(path) {
        lastScalarPath = path
        continue
      }
      if let type = typeCapture.schema.type(at: path.tokens, in: stateTypeName),
        typeCapture.schema.covers(value, type: type)
      {
        // Bounded: an array of scalars has a path per element.
        if isScalar, scalarPaths.count < 1_024, Self.isStandardScalar(type) {
          scalarPaths.insert(path)
        }
        continue
      }
      var pattern = path.tokens.map { $0.allSatisfy(\.isNumber) ? "*" : $0 }
        .joined(separator: "/")
      // Another case of an enum at a known path (a sheet, then an alert; a stack's second
      // kind of screen, inside its entry) is news too.
      pattern += Self.cases(in: value)
      if capturedPaths.insert(pattern).inserted { isNew = true }
    }
    return isNew
  }

  /// The enum cases `value` holds, as `#case` marks: objects of one member, in members and
  /// elements (an alert's button sending another case is news), each once.
  private static func cases(in value: JSONValue) -> String {
    var seen: Set<String> = []
    var marks = ""
    func walk(_ value: JSONValue, depth: Int) {
      guard depth < 8 else { return }
      if let elements = value.arrayValue {
        for element in elements.prefix(64) { walk(element, depth: depth + 1) }
        return
      }
      guard let object = value.objectValue else { return }
      if object.count == 1, seen.insert(object[0].key).inserted { marks += "#" + object[0].key }
      for member in object.values { walk(member, depth: depth + 1) }
    }
    walk(value, depth: 0)
    return marks
  }

  /// Whether `type` is a standard library scalar (or an optional of one), which the schema
  /// never describes: any scalar value is covered at a path of that type, now and later.
  private static func isStandardScalar(_ type: String) -> Bool {
    var base = TypeName.unwrappingOptional(type)
    while base.hasSuffix("?") { base.removeLast() }
    return standardScalarTypes.contains(base)
  }

  /// Puts the action first among the recent ones, dropping the oldest if there are too many.
  private func remember(_ action: Action, _ encoding: RecentEncoding) {
    var count = recentEncodings.count
    if count == Self.recentCapacity {
      (recentActions + count - 1).deinitialize(count: 1)
      recentEncodings.removeLast()
      count -= 1
    }
    (recentActions + 1).moveInitialize(from: recentActions, count: count)
    recentActions.initialize(to: action)
    recentEncodings.insert(encoding, at: 0)
  }

  deinit {
    recentActions.deinitialize(count: recentEncodings.count)
    recentActions.deallocate()
  }

  /// The case name of an action that could not be encoded. Never its description, which can
  /// hold the payload (or anything a custom `description` returns) that the rules would hide.
  static func fallbackLabel(for recorded: Action) -> String {
    let action: Any = (recorded as? any ReflectedBox)?.wrappedValue ?? recorded
    let mirror = Mirror(reflecting: action)
    guard mirror.displayStyle == .enum else { return "<not encodable>" }
    if let name = mirror.children.first?.label { return "." + name }
    // A case without a payload describes itself as its name, unless the type describes itself.
    if action is CustomStringConvertible || action is CustomDebugStringConvertible
      || action is any TextOutputStreamable
    {
      return "<not encodable>"
    }
    return "." + String(describing: action)
  }

  /// Appends the record's line to the output; returns its length in bytes.
  @discardableResult
  private func append(_ record: TraceRecord) -> Int {
    let start = output.count
    record.serialize(into: &output)
    output.append(UInt8(ascii: "\n"))
    return output.count - start
  }

  /// Writes the output, after the header and the `gap` record if they are owed. On failure,
  /// the output's steps join the gap, and the error is kept for `process` to throw.
  private func flushOutput() {
    guard !output.isEmpty || unwrittenHeader != nil else { return }
    lastWrite = clock.elapsed
    defer {
      output.removeAll(keepingCapacity: true)
      outputSteps = nil
    }
    var gapLine: [UInt8] = []
    if let gap {
      TraceRecord.gap(gap).serialize(into: &gapLine)
      gapLine.append(UInt8(ascii: "\n"))
      if unwrittenHeader == nil,
        isFull(nextStep: gap.to + 1, adding: gapLine.count + output.count),
        startSegment(firstStep: gap.from, initialState: gap.state, then: gapLine)
      {
        self.gap = nil
        gapLine = []
        segmentBytes += output.count
      }
    }
    var bytes: [UInt8] = (unwrittenHeader ?? []) + gapLine
    do {
      if bytes.isEmpty {
        try sink.write(output)
      } else {
        bytes.append(contentsOf: output)
        try sink.write(bytes)
      }
      unwrittenHeader = nil
      gap = nil
    } catch {
      if writeError == nil { writeError = error }
      guard let lost = outputSteps else { return }
      // The state after the last lost step lets a reader go on from there.
      gap = TraceGap(
        from: gap?.from ?? lost.lowerBound, to: lost.upperBound,
        reason: gap?.reason ?? "\(error)", state: differ.json)
    }
  }
}

/// A recent action's encoding: its JSON, its label, and both as a step's line holds them.
private struct RecentEncoding {
  var json: JSONValue?
  var label: String
  var members: [UInt8]
}

/// The standard library's scalar types, as the type capture names them.
private let standardScalarTypes: Set<String> = [
  "Swift.Int", "Swift.Int8", "Swift.Int16", "Swift.Int32", "Swift.Int64", "Swift.UInt",
  "Swift.UInt8", "Swift.UInt16", "Swift.UInt32", "Swift.UInt64", "Swift.Double",
  "Swift.Float", "Swift.Bool", "Swift.String",
]

/// The version of this package, written in trace headers and by `tca-replay --version`.
package let toolVersion = "0.1.0"

/// ISO 8601 timestamps in UTC with milliseconds, as trace headers hold them.
enum ISO8601 {
  static func string(from date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}
