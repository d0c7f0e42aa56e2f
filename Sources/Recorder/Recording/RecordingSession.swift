import Foundation

/// Turns recorded events into trace lines on the recorder's thread: encodes, redacts, diffs
/// against the previous state, and writes.
final class RecordingSession<State: Encodable, Action: Encodable> {
  private let sink: TraceSink
  private let options: TraceRecorder.Options
  private let encoder = JSONValueEncoder()
  private var differ: StateDiffer<State>
  private var stepCount = 0
  private var output: [UInt8] = []
  /// Bytes of step records written since the last keyframe (or the header).
  private var bytesSinceKeyframe = 0
  /// Bytes of the last full state written, in the header or a keyframe.
  private var stateBytes = 0
  /// The header of the current segment, the template of the next one's.
  private var header: TraceHeader
  /// Bytes written to the current segment, and the index of its first step.
  private var segmentBytes = 0
  private var segmentFirstStep = 0
  /// The last few actions encoded, for apps that send the same actions again and again.
  /// An action equal (`==`) to one of them is taken to encode the same, as synthesized
  /// `Equatable` and `Codable` conformances guarantee.
  private var recentActions: [(action: Action, json: JSONValue?, label: String)] = []
  /// The Swift types met so far, written as `types` where first met, for `gen-test`.
  private let typeCapture = TypeCapture()
  private let actionTypeName = String(reflecting: Action.self)
  private let stateTypeName = String(reflecting: State.self)
  /// The patch paths (indices as `*`) whose new values made the state's types be learned.
  private var capturedPaths: Set<String> = []

  /// Encodes the header, with `initialState`, and keeps the state for the first diff.
  init(
    sink: TraceSink,
    options: TraceRecorder.Options,
    reducer: String,
    initialState: State,
    started: Date
  ) throws {
    self.sink = sink
    self.options = options
    let differ = try StateDiffer(initialState: initialState, redactions: options.redactions)
    let state = differ.json
    self.differ = differ
    typeCapture.learn(from: initialState)
    let header = TraceHeader(
      version: traceFormatVersion,
      tool: "tca-replay \(toolVersion)",
      reducer: reducer,
      stateType: String(reflecting: State.self),
      actionType: String(reflecting: Action.self),
      fingerprint: SchemaFingerprint(
        state: Fingerprint.of(typeName: String(reflecting: State.self), sample: state),
        action: Fingerprint.of(typeName: String(reflecting: Action.self), sample: nil)
      ),
      started: ISO8601.string(from: started),
      keyframeInterval: options.keyframeInterval,
      redactions: options.redactions,
      metadata: options.metadata,
      firstStep: 0,
      initialState: state,
      types: typeCapture.takeNewFacts()
    )
    self.header = header
    stateBytes = append(.header(header))
    segmentBytes = stateBytes
    try flushOutput()
  }

  func process(_ events: [RecorderEvent<State, Action>]) throws {
    for event in events {
      switch event {
      case let .step(step): try record(step)
      case let .effect(effect): append(.effect(effect))
      case let .end(time): append(.end(TraceEnd(steps: stepCount, time: time)))
      case .begin: break  // Consumed by the pipeline, which creates the session with it.
      }
    }
    try flushOutput()
  }

  private func record(_ step: RecorderEvent<State, Action>.Step) throws {
    try startSegmentIfNeeded(before: step.index)
    let (action, label) = encode(step.action)
    // A state that stops encoding keeps the last good state; the step records no change.
    let patch = (try? differ.advance(to: step.state)) ?? JSONPatch()
    if addsValuesAtNewPaths(patch) { typeCapture.learn(from: step.state) }
    let stepBytes = append(
      .step(
        TraceStep(
          index: step.index,
          time: step.time,
          origin: step.origin,
          action: action,
          label: label,
          patch: patch,
          dependencies: step.dependencies.map(DependencyValue.init),
          types: typeCapture.takeNewFacts()
        )
      )
    )
    bytesSinceKeyframe += stepBytes
    segmentBytes += stepBytes
    stepCount = step.index + 1
    // A keyframe every K steps, but never one that costs more than the steps it saves a reader
    // from replaying: a big state with small changes gets fewer keyframes.
    if options.keyframeInterval > 0, stepCount % options.keyframeInterval == 0,
      bytesSinceKeyframe >= stateBytes
    {
      let state = (try? differ.verified()) ?? differ.json
      stateBytes = append(.keyframe(TraceKeyframe(index: step.index, state: state)))
      segmentBytes += stateBytes
      bytesSinceKeyframe = 0
    }
  }

  /// Starts a new file, with a header holding the current state, when the size limit says so.
  private func startSegmentIfNeeded(before index: Int) throws {
    guard let limit = options.limit, let rotate = sink.rotate, index > segmentFirstStep else {
      return
    }
    switch limit {
    case let .rotate(maxBytes, _): guard segmentBytes >= maxBytes else { return }
    case let .lastSteps(steps): guard index - segmentFirstStep >= max(1, steps) else { return }
    }
    try flushOutput()
    try rotate()
    header.firstStep = index
    header.initialState = differ.json
    // Each segment reads alone: its header repeats every type learned so far.
    header.types = typeCapture.schema.types.isEmpty ? nil : typeCapture.schema.json
    stateBytes = append(.header(header))
    segmentBytes = stateBytes
    bytesSinceKeyframe = 0
    segmentFirstStep = index
  }

  /// The action's JSON (`nil` when it cannot be encoded) and its label, reusing a recent
  /// encoding of an equal action.
  private func encode(_ action: Action) -> (JSONValue?, String) {
    if let index = recentActions.firstIndex(where: { areEqual($0.action, action) == true }) {
      let recent = recentActions[index]
      return (recent.json, recent.label)
    }
    var json: JSONValue?
    var label: String
    do {
      var encoded = try encoder.encode(action)
      // Mirror-based learning costs more than encoding: only for actions that hold news.
      if !typeCapture.schema.covers(encoded, type: actionTypeName) {
        typeCapture.learn(from: action)
      }
      Redaction.apply(options.redactions, to: &encoded, isState: false)
      json = encoded
      label = ActionLabel.make(from: encoded)
    } catch {
      // Recording never fails the app: the step keeps its label and is marked not replayable.
      label = Self.fallbackLabel(for: action)
    }
    if recentActions.count == 4 { recentActions.removeLast() }
    recentActions.insert((action, json, label), at: 0)
    return (json, label)
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
      if let type = typeCapture.schema.type(at: path.tokens, in: stateTypeName),
        typeCapture.schema.covers(value, type: type)
      {
        continue
      }
      let pattern = path.tokens.map { $0.allSatisfy(\.isNumber) ? "*" : $0 }
        .joined(separator: "/")
      if capturedPaths.insert(pattern).inserted { isNew = true }
    }
    return isNew
  }

  private static func fallbackLabel(for action: Action) -> String {
    let text = String(describing: action)
    let name = text.prefix { $0 != "(" }
    return "." + name
  }

  /// Appends the record's line to the output; returns its length in bytes.
  @discardableResult
  private func append(_ record: TraceRecord) -> Int {
    let start = output.count
    record.serialize(into: &output)
    output.append(UInt8(ascii: "\n"))
    return output.count - start
  }

  private func flushOutput() throws {
    guard !output.isEmpty else { return }
    defer { output.removeAll(keepingCapacity: true) }
    try sink.write(output)
  }
}

/// The version of this package, written in trace headers.
let toolVersion = "0.1.0"

/// ISO 8601 timestamps in UTC with milliseconds, as trace headers hold them.
enum ISO8601 {
  static func string(from date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}
