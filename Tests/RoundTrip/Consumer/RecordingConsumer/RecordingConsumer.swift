import Architecture
import Counter
import Recorder

/// Records a counter session with nothing but Recorder's public API, as an app outside this
/// package does: a declaration an app needs that is not public fails to compile here.
@MainActor
public func recordCounterSession(toPath path: String) throws -> [String] {
  let options = TraceRecorder.Options(
    keyframeInterval: 10,
    redactions: [.key("password"), .path("/fact")],
    metadata: ["build": "consumer"],
    limit: .rotate(maxBytes: 1 << 20, keep: 1),
    durability: .batched,
    recordsCrashes: false
  )
  let recorder = try TraceRecorder(path: path, options: options)
  let store = Store(initialState: CounterFeature.State()) {
    CounterFeature().recording(to: recorder)
  }
  store.send(.incrementButtonTapped)
  try recorder.flush()
  try recorder.close()

  let buffer = TraceBuffer()
  let inMemory = TraceRecorder(sink: .memory(buffer), options: .init(durability: .everyStep))
  let memoryStore = Store(initialState: CounterFeature.State()) {
    CounterFeature().recording(to: inMemory)
  }
  memoryStore.send(.incrementButtonTapped)
  do {
    try inMemory.close()
  } catch let error as RecorderError {
    return [error.description]
  }
  _ = try TraceSink.file(atPath: path + ".sink")
  _ = Redaction.key("token").description
  return buffer.lines
}

/// Replays a trace as an app's own test does, with `assertReplay` and what it returns.
public func replayCounterSession(atPath path: String) async throws -> String {
  let report: ReplayReport
  do {
    report = try await assertReplay(
      trace: path, reducer: CounterFeature(), mode: ReplayMode.cumulative)
  } catch let error as ReplayError {
    return error.description
  }
  return "\(report.matches) \(report.steps) \(report.replayed) \(report.divergentSteps) "
    + "\(report.unknown) \(report.warnings) \(report.mode) \(report)"
}

/// The same from a synchronous test.
public func replayCounterSessionSynchronously(atPath path: String) throws -> Bool {
  try assertReplay(trace: path, reducer: CounterFeature()).matches
}
