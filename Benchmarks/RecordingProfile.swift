import Architecture
import Foundation
import Recorder
import Todos

/// One recording loop and nothing else, for profilers: `perf record` or
/// `valgrind --tool=callgrind --toggle-collect='*recordingProfileLoop*'`.
///
///   benchmarks profile-record counter|todos1000|todos10000|plain1000 [--steps N] [--dump PATH] [--bare] [--cold]
///
/// `plain1000` is `todos1000`'s twin with no `Codable`, recorded by reflection.
///
/// `--bare` runs the reducer without a recorder, the baseline to subtract.
/// `--cold` sweeps a buffer bigger than the caches before each step, as a thread that idled
/// between actions finds them; profile each step alone with
/// `--toggle-collect='*ProfileStep*' --cache-sim=yes` to count the cache lines a step needs.
/// `--dump` writes the recorded trace to PATH, to see what the bytes per step are made of.
@MainActor
func recordingProfile(_ arguments: [String], steps: Int?) {
  let name = arguments.first { !$0.hasPrefix("-") && Int($0) == nil && $0 != "profile-record" }
  let bare = arguments.contains("--bare")
  let cold = arguments.contains("--cold")
  var dumpPath: String?
  if let index = arguments.firstIndex(of: "--dump"), index + 1 < arguments.endIndex {
    dumpPath = arguments[index + 1]
  }
  switch name {
  case "counter":
    profile(counterShape, steps: steps ?? 20_000, dumpPath: dumpPath, bare: bare, cold: cold)
  case "todos1000":
    profile(todosToggleShape(count: 1_000), steps: steps ?? 2_000, dumpPath: dumpPath, bare: bare, cold: cold)
  case "todos10000":
    profile(todosToggleShape(count: 10_000), steps: steps ?? 300, dumpPath: dumpPath, bare: bare, cold: cold)
  case "plain1000":
    profile(
      plainTodosToggleShape(count: 1_000), steps: steps ?? 2_000, dumpPath: dumpPath, bare: bare,
      cold: cold, record: RecordingRun.reflectedRecording)
  default:
    print("profile-record: expected counter, todos1000, todos10000 or plain1000")
    exit(64)
  }
}

@MainActor
private func profile<R: Reducer>(
  _ shape: Shape<R>, steps: Int, dumpPath: String?, bare: Bool, cold: Bool
) where R.State: Codable, R.Action: Codable {
  profile(
    shape, steps: steps, dumpPath: dumpPath, bare: bare, cold: cold,
    record: RecordingRun.typedRecording)
}

@MainActor
private func profile<R: Reducer>(
  _ shape: Shape<R>, steps: Int, dumpPath: String?, bare: Bool, cold: Bool,
  record: RecordingRun<R>.Record
) {
  if bare {
    var state = shape.initialState
    let reducer = shape.reducer
    for index in 0..<warmUpSteps { _ = reducer.reduce(into: &state, action: shape.action(index)) }
    let clock = ContinuousClock()
    let start = clock.now
    if cold {
      for index in warmUpSteps..<(warmUpSteps + steps) {
        evictCaches()
        bareProfileStep(reducer, &state, shape.action(index))
      }
    } else {
      bareProfileLoop(reducer, &state, shape, steps: steps)
    }
    let elapsed = clock.now - start
    print("\(shape.name), bare reducer: \(format(elapsed.nanoseconds / Double(steps), digits: 1)) ns/step")
    return
  }
  // The first steps create the recorder's pipeline and fill the runtime's caches: outside the
  // profiled loop, which starts where this one stops.
  let recording = RecordingRun.warmedUp(shape, capacity: steps + warmUpSteps + 1, record: record)
  let clock = ContinuousClock()
  let start = clock.now
  if cold {
    for index in warmUpSteps..<(warmUpSteps + steps) {
      evictCaches()
      recordedProfileStep(recording, shape.action(index))
    }
  } else {
    recordingProfileLoop(recording, shape, steps: steps)
  }
  let sent = clock.now
  recording.close()
  let closed = clock.now
  print(
    "\(shape.name): \(steps) steps, app thread \(format((sent - start).nanoseconds / Double(steps), digits: 1)) ns/step, "
      + "until closed \(format((closed - start).nanoseconds / Double(steps), digits: 1)) ns/step, "
      + "\(recording.buffer.data.count) bytes"
  )
  if let dumpPath {
    _ = FileManager.default.createFile(atPath: dumpPath, contents: Data(recording.buffer.data))
  }
}

@MainActor @inline(never)
private func recordingProfileLoop<R: Reducer>(
  _ recording: RecordingRun<R>, _ shape: Shape<R>, steps: Int
) {
  for index in warmUpSteps..<(warmUpSteps + steps) {
    _ = recording.reducer.reduce(into: &recording.state, action: shape.action(index))
  }
}

@MainActor @inline(never)
private func bareProfileLoop<R: Reducer>(
  _ reducer: R, _ state: inout R.State, _ shape: Shape<R>, steps: Int
) {
  for index in warmUpSteps..<(warmUpSteps + steps) {
    _ = reducer.reduce(into: &state, action: shape.action(index))
  }
}

@MainActor @inline(never)
private func recordedProfileStep<R: Reducer>(_ recording: RecordingRun<R>, _ action: R.Action) {
  _ = recording.reducer.reduce(into: &recording.state, action: action)
}

@MainActor @inline(never)
private func bareProfileStep<R: Reducer>(_ reducer: R, _ state: inout R.State, _ action: R.Action) {
  _ = reducer.reduce(into: &state, action: action)
}

/// Reads and writes 8 MB, more than this machine's second-level and a simulated last-level
/// cache hold, so the next step finds its memory cold.
@inline(never)
private func evictCaches() {
  evictionBuffer.withUnsafeMutableBufferPointer { bytes in
    for offset in stride(from: 0, to: bytes.count, by: 64) { bytes[offset] &+= 1 }
  }
}

nonisolated(unsafe) private var evictionBuffer = [UInt8](repeating: 0, count: 8 << 20)

/// `Store.send` of toggles (each starts an effect) in a loop, for profilers:
///
///   benchmarks profile-store [--steps N] [--bare]
///
/// With a recorder unless `--bare`; 16 actions at a time, the writer catching up in between.
/// Under callgrind, `--toggle-collect='*storeProfileBurst*'` counts the app thread's sends only.
@MainActor
func storeProfile(_ arguments: [String], steps: Int?) {
  let shape = todosToggleShape(count: 1_000)
  let action = shape.action
  let bare = arguments.contains("--bare")
  let recorder = TraceRecorder(sink: .memory(TraceBuffer()), options: .init())
  let store = Store(initialState: shape.initialState) {
    if bare { TodosFeature() } else { TodosFeature().recording(to: recorder) }
  }
  let steps = steps ?? 2_000
  // The first sends fill the runtime's caches (metadata, conformances): not profiled.
  for index in 0..<warmUpSteps { store.send(action(index)) }
  try? recorder.flush()
  var index = warmUpSteps
  while index < warmUpSteps + steps {
    storeProfileBurst(store, action, from: index)
    index += 16
    try? recorder.flush()
  }
  try? recorder.close()
  print("profile-store: \(steps) sends, \(bare ? "bare" : "recorded")")
}

@MainActor @inline(never)
private func storeProfileBurst(
  _ store: Store<TodosFeature.State, TodosFeature.Action>,
  _ action: (Int) -> TodosFeature.Action,
  from start: Int
) {
  for index in start..<(start + 16) { store.send(action(index)) }
}
