import Architecture
import TraceJSON

/// Runs one recorded step again from the state recorded before it, with every composition
/// boundary instrumented, and answers which reducer wrote each path the step changed and which
/// returned each effect: a host's `blame` (protocol version 3).
struct BlameRunner<Base: Reducer> where Base.State: Codable, Base.Action: Codable {
  let reducer: Base
  let updateDependencies: @Sendable (inout DependencyValues) -> Void

  func blame(step index: Int, in recording: LoadedRecording) throws -> JSONValue {
    guard let position = recording.positions[index] else {
      throw HistoryRequestError("\(recording.path) has no step \(index)")
    }
    let recorded = recording.steps[position]
    guard let actionJSON = recorded.step.action else {
      throw HistoryRequestError(
        "\(recording.path): step \(index)'s action was not recorded (it did not encode)")
    }
    let header = recording.header
    var standIns = RedactedStandIns(schema: recording.schema)
    if header.redactions.isEmpty { standIns = RedactedStandIns(schema: TypeSchema()) }
    func decodable(_ json: JSONValue, type: String) -> JSONValue {
      header.redactions.isEmpty ? json : standIns.replacing(in: json, type: type)
    }
    let decoder = JSONValueDecoder.replaying
    let encoder = JSONValueEncoder.recording
    let feed = DependencyFeed()
    var values = DependencyValues._current
    updateDependencies(&values)
    feed.install(into: &values)
    let scope = values

    return try DependencyValues.$_current.withValue(scope) {
      var state = try decoder.decode(
        Base.State.self, from: decodable(recorded.before, type: header.stateType))
      let action = try decoder.decode(
        Base.Action.self, from: decodable(actionJSON, type: header.actionType))
      var before = try encoder.encode(state)
      Redaction.apply(header.redactions, to: &before, isState: true)
      feed.load(recorded.step.dependencies)
      let listener = BlameRecorder()
      CrashSite.reducing(index)
      Blame.listening(listener) {
        _ = withIssueCapture {
          feed.withRecordedSettings { _ = reducer.reduce(into: &state, action: action) }
        }
      }
      CrashSite.reducing(-1)
      var after = try encoder.encode(state)
      Redaction.apply(header.redactions, to: &after, isState: true)
      return Self.answer(
        step: index, label: recorded.step.label, before: before, after: after, listener)
    }
  }

  /// The answer: each changed path with its writers, innermost boundary first, in the order
  /// they wrote; then each effect returned.
  static func answer(
    step: Int, label: String, before: JSONValue, after: JSONValue, _ listener: BlameRecorder
  ) -> JSONValue {
    var changes: [JSONValue] = []
    var located = Set<Int>()
    for difference in StateDifference.between(expected: before, actual: after) {
      let path = difference.path.tokens
      var writers: [JSONValue] = []
      for (number, write) in listener.writes.enumerated() {
        guard let at = write.path, BlameRecorder.related(at, path) else { continue }
        located.insert(number)
        writers.append(chain(write.chain))
      }
      if writers.isEmpty {
        // A key path through a computed property: find the write by the path inside its state.
        for (number, write) in listener.writes.enumerated()
        where write.path == nil && !write.relative.isEmpty && path.ends(with: write.relative) {
          located.insert(number)
          writers.append(chain(write.chain))
        }
      }
      var change: [(String, JSONValue)] = [("path", .string(difference.path.description))]
      if let old = difference.expected { change.append(("old", old)) }
      if let new = difference.actual { change.append(("new", new)) }
      change.append(("writers", .array(writers)))
      changes.append(JSONValue.object(JSONObject(change)))
    }
    let effects: [JSONValue] = listener.effects.map { effect in
      [
        "runs": .integer(Int64(effect.runs)),
        "cancels": .array(effect.cancels.map { .string($0) }),
        "cancellable": .array(effect.cancellable.map { .string($0) }),
        "chain": chain(effect.chain),
      ]
    }
    return [
      "step": .integer(Int64(step)), "label": .string(label), "changes": .array(changes),
      "effects": .array(effects),
    ]
  }

  /// The boundaries from the writer out to the root: `[{kind, detail, file, line}]`.
  private static func chain(_ frames: [BlameFrame]) -> JSONValue {
    .array(
      frames.reversed().map { frame in
        [
          "kind": .string("\(frame.kind)"), "detail": .string(frame.segment.detail),
          "file": .string(frame.site.file), "line": .integer(Int64(frame.site.lineNumber)),
        ]
      })
  }
}

extension Array where Element: Equatable {
  fileprivate func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
