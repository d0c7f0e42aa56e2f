import Architecture
import Foundation
import Recorder

/// The cost of recording, per action: on the app's thread, in total across threads, and in
/// bytes, against the bare reducer and a naive recorder that snapshots the whole state with
/// Foundation's `JSONEncoder` on every step.
@MainActor
func recordingBenchmarks(_ harness: Harness) -> [Table] {
  [
    recordingTable(counterShape, harness, operations: 20_000, naiveOperations: 20_000),
    recordingTable(
      todosToggleShape(count: 1_000), harness, operations: 2_000, naiveOperations: 200
    ),
    recordingTable(
      todosToggleShape(count: 10_000), harness, operations: 2_000, naiveOperations: 20
    ),
  ]
}

@MainActor
private func recordingTable<R: Reducer>(
  _ shape: Shape<R>, _ harness: Harness, operations: Int, naiveOperations: Int
) -> Table where R.State: Codable, R.Action: Codable {
  var table = Table(title: "Recording, \(shape.name) (per action)")
  let reducer = shape.reducer
  let baseline = "bare reducer"
  table.add(
    baseline,
    harness.measure(operations: operations) {
      shape.initialState
    } _: { state, index in
      _ = reducer.reduce(into: &state, action: shape.action(index))
    })

  table.add(
    "naive recorder: JSONEncoder snapshot per step",
    harness.measure(operations: naiveOperations) {
      (shape.initialState, NaiveSnapshotRecorder())
    } _: { context, index in
      _ = reducer.reduce(into: &context.0, action: shape.action(index))
      context.1.record(context.0)
    }, baseline: baseline)

  // The app's thread: reduce, then hand the step over; the writer's work shows in the total
  // CPU of the process.
  let (appThread, cpu, _) = RecordingRun.atOnce(shape, harness, operations: operations)
  table.add(
    "recorder: app thread, \(operations) actions at once",
    Harness.Figure(nanosecondsPerOperation: appThread), baseline: baseline
  )
  // Paced rows: a person's actions come apart, and the app's thread idles in between, so its
  // caches are cold when the next one comes. The bare reducer is paced the same way, as the
  // baseline of each paced row: idling alone slows it down several times.
  for burst in [16, 1] {
    let pacing = Pacing(burst: burst, operations: burst == 1 ? 500 : 1_024)
    let bare = "bare reducer, \(pacing.name)"
    table.add(
      bare,
      pacing.measure(harness) {
        shape.initialState
      } send: { state, index in
        _ = reducer.reduce(into: &state, action: shape.action(index))
      })
    table.add(
      "recorder: app thread, \(pacing.name)",
      pacing.measure(harness) {
        RecordingRun.warmedUp(shape, capacity: burst + warmUpSteps + 1)
      } send: { recording, index in
        _ = recording.reducer.reduce(into: &recording.state, action: shape.action(warmUpSteps + index))
      } between: { recording in
        recording.flush()
      } tearDown: { recording in
        recording.close()
      }, baseline: bare)
  }
  table.add(
    "recorder: total CPU, all threads", Harness.Figure(nanosecondsPerOperation: cpu),
    baseline: baseline)

  // Bytes do not vary from run to run, but a big state's keyframes are far apart: one long
  // recording, measured from its first keyframe to its last, gives the steady state.
  let (bytes, steps) = steadyStateBytes(shape)
  table.add(
    "recorder: bytes per step, keyframes included (\(steps) steps)",
    Harness.Figure(nanosecondsPerOperation: [Double(bytes.values.reduce(0, +)) / Double(steps)]),
    unit: .bytes
  )
  // What the bytes are: the step records themselves, the records of effects that ended, and
  // the keyframes that let a reader start near any step.
  for kind in RecordKind.allCases {
    table.add(
      "  of which \(kind.rawValue)",
      Harness.Figure(nanosecondsPerOperation: [Double(bytes[kind] ?? 0) / Double(steps)]),
      unit: .bytes
    )
  }
  return table
}

/// Actions sent `burst` at a time, a fixed period apart, as in an app a person drives.
///
/// Between bursts the app's thread waits: for the writer to catch up (`between`), then idle
/// until the period is over. Both the bare reducer and the recorder are paced by the same
/// clock, so both idle about as long and come back to caches alike cold; only the recorder's
/// rows also find memory the writer touched meanwhile (the reference counts it changed while
/// freeing old states). The period leaves the writer time to catch up on a burst of todos, so
/// no action waits for it and none pays for waking it: it is napping when a burst starts.
struct Pacing {
  var burst: Int
  var operations: Int
  /// One action a millisecond, or a burst of 16 every 4 ms: more than the writer needs for a
  /// step (a burst) of 10,000 todos, so it has caught up before the next one, and less than
  /// its nap window, so it naps rather than sleeps.
  var period: Duration { burst == 1 ? .milliseconds(1) : .milliseconds(4) }
  var name: String { "\(burst) action\(burst == 1 ? "" : "s") at a time" }

  /// The time per action spent in `send`, the median of `harness.runs` runs after a warm-up.
  @MainActor
  func measure<Context>(
    _ harness: Harness,
    setUp: () -> Context,
    send: (inout Context, Int) -> Void,
    between: (Context) -> Void = { _ in },
    tearDown: (Context) -> Void = { _ in }
  ) -> Harness.Figure {
    var samples: [Double] = []
    let clock = ContinuousClock()
    for run in 0...harness.runs {
      var context = setUp()
      var elapsed = Duration.zero
      var index = 0
      while index < operations {
        let start = clock.now
        for _ in 0..<burst {
          send(&context, index)
          index += 1
        }
        elapsed += clock.now - start
        between(context)
        // Idle on the main run loop, not in `usleep`: the store's effects are main-actor
        // tasks, and they start (and end, and are recorded) only when the main actor is free.
        let idle = start + period - clock.now
        if idle > .zero {
          RunLoop.main.run(until: Date(timeIntervalSinceNow: Double(idle.nanoseconds) / 1e9))
        }
      }
      tearDown(context)
      if run > 0 { samples.append(elapsed.nanoseconds / Double(index)) }
    }
    return Harness.Figure(nanosecondsPerOperation: samples)
  }
}

/// Steps the recording benchmarks take before timing.
let warmUpSteps = 10

/// The bytes of each kind of record per step, after the first keyframe up to and including the
/// second, and how many steps that is. The queue is small: this
/// run is not timed, and it keeps memory bounded.
@MainActor
private func steadyStateBytes<R: Reducer>(_ shape: Shape<R>) -> ([RecordKind: Int], Int)
where R.State: Codable, R.Action: Codable
{
  let recording = RecordingRun(shape: shape, capacity: 256)
  var keyframes: [Int] = []  // Where each keyframe line starts.
  var index = 0
  var scanned = 0
  while keyframes.count < 2 {
    for _ in 0..<1_000 {
      _ = recording.reducer.reduce(into: &recording.state, action: shape.action(index))
      index += 1
    }
    recording.flush()
    let data = recording.buffer.data
    keyframes += keyframeStarts(data[scanned...])
    scanned = data.count
  }
  recording.close()
  let data = recording.buffer.data
  let end = data[keyframes[1]...].firstIndex(of: UInt8(ascii: "\n"))! + 1
  let slice = data[data[keyframes[0]...].firstIndex(of: UInt8(ascii: "\n"))! + 1..<end]
  let steps = slice.split(separator: UInt8(ascii: "\n")).count { $0.starts(with: stepPrefix) }
  return (recordBytes(slice), steps)
}

private let stepPrefix = Array(#"{"kind":"step""#.utf8)
private let keyframePrefix = Array(#"{"kind":"keyframe""#.utf8)

/// Where the keyframe lines in `bytes` start.
private func keyframeStarts(_ bytes: ArraySlice<UInt8>) -> [Int] {
  var starts: [Int] = []
  var start = bytes.startIndex
  while start < bytes.endIndex {
    let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    if bytes[start..<end].starts(with: keyframePrefix) { starts.append(start) }
    start = end + 1
  }
  return starts
}

/// One recording into memory.
@MainActor
final class RecordingRun<R: Reducer> {
  /// Wraps a reducer in a recorder: `typedRecording` or `reflectedRecording`.
  typealias Record = @MainActor (R, TraceRecorder) -> Reduce<R.State, R.Action>

  let buffer = TraceBuffer()
  let recorder: TraceRecorder
  let reducer: Reduce<R.State, R.Action>
  var state: R.State

  init(
    shape: Shape<R>, capacity: Int, options: TraceRecorder.Options = .init(), path: String? = nil,
    record: Record
  ) {
    var options = options
    options.queueCapacity = capacity
    recorder =
      if let path { try! TraceRecorder(path: path, options: options) } else {
        TraceRecorder(sink: .memory(buffer), options: options)
      }
    reducer = record(shape.reducer, recorder)
    state = shape.initialState
  }

  /// `recording(to:)` without a `Codable` constraint in sight: the reflecting recorder, even
  /// for types that are `Codable`.
  static var reflectedRecording: Record {
    { reducer, recorder in Reduce(reducer.recording(to: recorder)) }
  }

  func close() {
    try? recorder.close()
  }

  /// A recording that has taken the first `warmUpSteps` steps, which write the header and
  /// check the differ, and written them.
  static func warmedUp(
    _ shape: Shape<R>, capacity: Int, options: TraceRecorder.Options = .init(), path: String? = nil,
    record: Record
  ) -> RecordingRun {
    let recording = RecordingRun(
      shape: shape, capacity: capacity, options: options, path: path, record: record)
    for index in 0..<warmUpSteps {
      _ = recording.reducer.reduce(into: &recording.state, action: shape.action(index))
    }
    recording.flush()
    return recording
  }

  /// Sends `operations` actions back to back, in `harness.runs` runs after one to warm up: per
  /// action, the app's thread's wall-clock time and the process's CPU until the writer has
  /// written them all; and the bytes per step. The first steps of each recording, which write
  /// the header (paid once per trace, not per step) and check the differ, are not timed.
  @MainActor
  static func atOnce(
    _ shape: Shape<R>, _ harness: Harness, operations: Int, record: Record
  ) -> (appThread: [Double], cpu: [Double], bytesPerStep: Double) {
    var appThread: [Double] = []
    var cpu: [Double] = []
    var bytes = 0.0
    for run in 0...harness.runs {
      let recording = RecordingRun.warmedUp(
        shape, capacity: operations + warmUpSteps + 1, record: record)
      let before = recording.buffer.data.count
      let clock = ContinuousClock()
      let cpuStart = settledProcessCPUNanoseconds()
      let start = clock.now
      for index in warmUpSteps..<(warmUpSteps + operations) {
        _ = recording.reducer.reduce(into: &recording.state, action: shape.action(index))
      }
      let sent = clock.now
      recording.flush()
      let cpuEnd = settledProcessCPUNanoseconds()
      bytes = Double(recording.buffer.data.count - before) / Double(operations)
      recording.close()
      guard run > 0 else { continue }
      appThread.append((sent - start).nanoseconds / Double(operations))
      cpu.append((cpuEnd - cpuStart) / Double(operations))
    }
    return (appThread, cpu, bytes)
  }

  /// Waits until the writer has written every step sent so far.
  func flush() {
    try? recorder.flush()
  }
}

/// The typed path, what the benchmarks measured before reflection: `Codable` types recorded
/// through their own conformances.
extension RecordingRun where R.State: Codable, R.Action: Codable {
  static var typedRecording: Record {
    { reducer, recorder in Reduce(reducer.recording(to: recorder)) }
  }

  convenience init(
    shape: Shape<R>, capacity: Int, options: TraceRecorder.Options = .init(), path: String? = nil
  ) {
    self.init(
      shape: shape, capacity: capacity, options: options, path: path, record: Self.typedRecording)
  }

  static func warmedUp(
    _ shape: Shape<R>, capacity: Int, options: TraceRecorder.Options = .init(), path: String? = nil
  ) -> RecordingRun {
    warmedUp(
      shape, capacity: capacity, options: options, path: path, record: typedRecording)
  }

  static func atOnce(
    _ shape: Shape<R>, _ harness: Harness, operations: Int
  ) -> (appThread: [Double], cpu: [Double], bytesPerStep: Double) {
    atOnce(shape, harness, operations: operations, record: typedRecording)
  }
}

/// The kinds of trace record the byte figures are split into.
enum RecordKind: String, CaseIterable {
  case steps = "step records"
  case effects = "effect records (ended effects)"
  case keyframes = "keyframes"
  case other = "other records (end)"
}

/// The bytes of each kind of record in `lines`, newlines included, told apart by how each
/// line starts.
func recordBytes(_ lines: ArraySlice<UInt8>) -> [RecordKind: Int] {
  let prefixes: [(RecordKind, [UInt8])] = [
    (.steps, Array(#"{"kind":"step""#.utf8)),
    (.effects, Array(#"{"kind":"effect""#.utf8)),
    (.keyframes, Array(#"{"kind":"keyframe""#.utf8)),
  ]
  var bytes: [RecordKind: Int] = [:]
  var start = lines.startIndex
  while start < lines.endIndex {
    let end = (lines[start...].firstIndex(of: UInt8(ascii: "\n")) ?? lines.endIndex - 1) + 1
    let line = lines[start..<end]
    let kind = prefixes.first { line.starts(with: $0.1) }?.0 ?? .other
    bytes[kind, default: 0] += line.count
    start = end
  }
  return bytes
}

/// The process's CPU time, in nanoseconds, once its other threads have stopped running.
///
/// Linux adds a running thread's time to the process's total only at the scheduler's tick
/// (4 ms on the benchmark machine) or when the thread stops running; only the calling thread's
/// own time is exact. Read just after the writer's last batch, the total missed up to a tick of
/// the writer's work, or counted the work of the run before: 2,000 counter steps cost about
/// 6 ms, so one run read 0.7× the snapshot and the next 2×. The writer blocks microseconds
/// after its last batch, and an idle thread costs nothing, so a short sleep settles the total.
func settledProcessCPUNanoseconds() -> Double {
  usleep(2_000)
  return processCPUNanoseconds()
}

/// User plus system CPU time of the whole process, in nanoseconds.
func processCPUNanoseconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  let user = Double(usage.ru_utime.tv_sec) * 1e9 + Double(usage.ru_utime.tv_usec) * 1e3
  let system = Double(usage.ru_stime.tv_sec) * 1e9 + Double(usage.ru_stime.tv_usec) * 1e3
  return user + system
}

/// The recorder a first attempt would write: the whole state, through Foundation's encoder,
/// on the app's thread, every step.
struct NaiveSnapshotRecorder {
  let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys  // Stable bytes; Linux key order varies otherwise.
    return encoder
  }()
  var bytes = 0

  mutating func record(_ state: some Encodable) {
    bytes += ((try? encoder.encode(state))?.count ?? 0) + 1
  }
}
