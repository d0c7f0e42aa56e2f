import Architecture
import Foundation
import Recorder

/// The cost of recording, per action: on the app's thread, in total across threads, and in
/// bytes, against the bare reducer and a naive recorder that snapshots the whole state with
/// Foundation's `JSONEncoder` on every step.
@MainActor
func recordingBenchmarks(_ harness: Harness) -> [Table] {
  [recordingTable(counterShape, harness, operations: 20_000)]
}

@MainActor
private func recordingTable<R: Reducer>(_ shape: Shape<R>, _ harness: Harness, operations: Int)
  -> Table
{
  var table = Table(title: "Recording, \(shape.name) (per action)")
  let reducer = shape.reducer
  let baseline = "bare reducer"
  table.add(baseline, harness.measure(operations: operations) {
    shape.initialState
  } _: { state, index in
    _ = reducer.reduce(into: &state, action: shape.action(index))
  })

  table.add("naive recorder: JSONEncoder snapshot per step", harness.measure(operations: operations) {
    (shape.initialState, NaiveSnapshotRecorder())
  } _: { context, index in
    _ = reducer.reduce(into: &context.0, action: shape.action(index))
    context.1.record(context.0)
  }, baseline: baseline)

  // The app's thread: reduce, then hand the step over. The queue holds every step, so the
  // app never waits here; the writer's work is measured below as total CPU.
  var cpu: [Double] = []
  var bytes: [Double] = []
  let appThread = harness.measure(operations: operations) {
    RecordingRun(shape: shape, capacity: operations + 1)
  } _: { run, index in
    if index == 0 { run.startCPU() }
    _ = run.reducer.reduce(into: &run.state, action: shape.action(index))
    if index == operations - 1 {
      run.finish()
      cpu.append(run.cpuNanoseconds / Double(operations))
      bytes.append(Double(run.buffer.data.count) / Double(operations))
    }
  }
  table.add("recorder: app thread", appThread, baseline: baseline)
  table.add("recorder: total CPU, all threads", Harness.Figure(nanosecondsPerOperation: cpu), baseline: baseline)
  table.add("recorder: bytes per step", Harness.Figure(nanosecondsPerOperation: bytes), unit: .bytes)
  return table
}

/// One recording, with the CPU time of the whole process measured around it.
@MainActor
final class RecordingRun<R: Reducer> where R.State: Codable, R.Action: Codable {
  let buffer = TraceBuffer()
  let recorder: TraceRecorder
  let reducer: Reduce<R.State, R.Action>
  var state: R.State
  private var cpuStart = 0.0
  private(set) var cpuNanoseconds = 0.0

  init(shape: Shape<R>, capacity: Int) {
    recorder = TraceRecorder(sink: .memory(buffer), options: .init(queueCapacity: capacity))
    reducer = Reduce(shape.reducer.recording(to: recorder))
    state = shape.initialState
  }

  func startCPU() { cpuStart = processCPUNanoseconds() }

  func finish() {
    try? recorder.close()
    cpuNanoseconds = processCPUNanoseconds() - cpuStart
  }
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
