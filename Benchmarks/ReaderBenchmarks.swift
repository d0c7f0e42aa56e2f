import Architecture
import Counter
import Foundation
import Recorder

/// Opening and walking a trace, as `tca-replay step` does: index build, a random step, a step
/// back, and peak memory. Each figure is compared with reading the file once, sequentially.
@MainActor
func readerBenchmarks(_ harness: Harness, counterSteps: Int) -> [Table] {
  let generated = generatedCounterTrace(steps: counterSteps)
  let todos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Traces/todos.ndjson").path
  // A big state that changes a little: its keyframes are far apart.
  let bigState = generatedTrace(todosToggleShape(count: 1_000), name: "todos-1000", steps: 12_000)
  return [
    readerTable(generated, title: "\(counterSteps) counter steps", harness),
    readerTable(bigState, title: "12000 toggles among 1000 todos", harness),
    readerTable(todos, title: "Traces/todos.ndjson", harness),
  ]
}

private func readerTable(_ path: String, title: String, _ harness: Harness) -> Table {
  let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  var table = Table(title: "Reading \(title) (\(size / 1_000_000) MB)")
  let baseline = "baseline: read the file once, sequentially"
  table.add(
    baseline,
    harness.measure(operations: 1, setUp: {}) { _, _ in
      readSequentially(path)
    })
  table.add(
    "open and index",
    harness.measure(operations: 1, setUp: {}) { _, _ in
      _ = try! TraceIndex(path: path)
    }, baseline: baseline)

  let trace = try! TraceIndex(path: path)
  var generator = SystemRandomNumberGenerator()
  let samples = 200
  table.add(
    "show a random step (state + record)",
    harness.measure(operations: samples) {
      (0..<samples).map { _ in Int.random(in: trace.stepIndices, using: &generator) }
    } _: { (targets: inout [Int], index: Int) in
      let target = targets[index]
      _ = try! trace.state(afterStep: target)
      _ = try! trace.step(at: target)
    }, baseline: baseline)

  let backs = min(1_000, trace.stepCount)
  table.add(
    "back one step",
    harness.measure(operations: backs) { () -> TraceIndex.Cursor in
      var cursor = TraceIndex.Cursor(trace: trace)
      try! cursor.move(to: trace.stepIndices.last)
      return cursor
    } _: { cursor, _ in
      _ = try! cursor.backward()
    }, baseline: baseline)

  // Peak memory, of a child process doing only that: in this process, freed memory that is
  // still resident would hide new allocations.
  let readPeak = (0..<harness.runs).map { _ in peakResidentBytes(ofChild: ["_read", path]) }
  let indexPeak = (0..<harness.runs).map { _ in peakResidentBytes(ofChild: ["_index", path]) }
  let peakBaseline = "peak memory: a process reading the file"
  table.add(peakBaseline, Harness.Figure(nanosecondsPerOperation: readPeak), unit: .bytes)
  table.add(
    "peak memory: a process opening and indexing it",
    Harness.Figure(nanosecondsPerOperation: indexPeak), baseline: peakBaseline, unit: .bytes
  )
  // The target: what indexing adds stays under a tenth of the file plus one state.
  let stateBytes = Double(trace.header.initialState.jsonBytes.count)
  let budget = "budget: 10% of the file + one state"
  table.add(
    budget, Harness.Figure(nanosecondsPerOperation: [Double(size) / 10 + stateBytes]), unit: .bytes)
  table.add(
    "memory indexing adds",
    Harness.Figure(nanosecondsPerOperation: zip(indexPeak, readPeak).map { $0 - $1 }),
    baseline: budget, unit: .bytes
  )
  // The target: the index holds at most 16 bytes a step.
  let perStep = "budget: 16 B per step"
  table.add(perStep, Harness.Figure(nanosecondsPerOperation: [16]), unit: .bytes)
  table.add(
    "memory indexing adds, per step",
    Harness.Figure(
      nanosecondsPerOperation: zip(indexPeak, readPeak).map {
        ($0 - $1) / Double(max(1, trace.stepCount))
      }),
    baseline: perStep, unit: .bytes
  )
  return table
}

/// Reads `path` start to end in 1 MiB chunks, touching every byte's chunk and nothing more.
private func readSequentially(_ path: String) {
  let descriptor = open(path, O_RDONLY)
  precondition(descriptor >= 0, "cannot open \(path)")
  defer { close(descriptor) }
  var buffer = [UInt8](repeating: 0, count: 1 << 20)
  var total = 0
  while true {
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
    if count <= 0 { break }
    total += count
  }
  precondition(total > 0)
}

/// The peak resident memory of this benchmark run again with `arguments`, in bytes.
///
/// The child reports its own `VmHWM`: `wait4`'s figure would include memory from before the
/// child's `exec`, which it shares with this process.
private func peakResidentBytes(ofChild arguments: [String]) -> Double {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  try! process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return Double(
    String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
}

/// The work of a child process measured by `peakResidentBytes(ofChild:)`; prints its peak.
func runReaderChild(_ arguments: [String]) {
  switch arguments.first {
  case "_read": readSequentially(arguments[1])
  case "_index": _ = try! TraceIndex(path: arguments[1])
  default: preconditionFailure("unknown child task")
  }
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
  let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
  print(Int(kilobytes * 1024))
}

/// A trace of `steps` steps of `shape` from its initial state, recorded by the real recorder
/// into a temporary file named after `name`, made once and reused by later runs.
@MainActor
func generatedTrace<R: Reducer>(_ shape: Shape<R>, name: String, steps: Int) -> String
where R.State: Codable, R.Action: Codable
{
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent(
      "tca-replay-benchmark-\(name)-v\(traceFormatVersion)-\(steps).ndjson"
    ).path
  if FileManager.default.fileExists(atPath: path) { return path }
  let partial = path + ".partial"
  let recorder = try! TraceRecorder(sink: .file(atPath: partial))
  let reducer = Reduce(shape.reducer.recording(to: recorder))
  var state = shape.initialState
  print("Recording \(steps) steps of \(shape.name) into \(path)…")
  for index in 0..<steps {
    _ = reducer.reduce(into: &state, action: shape.action(index))
  }
  try! recorder.close()
  try! FileManager.default.moveItem(atPath: partial, toPath: path)
  return path
}

/// The generated trace of `steps` counter steps: two increments, then a decrement.
@MainActor
func generatedCounterTrace(steps: Int) -> String {
  let shape = Shape(
    name: "counter", reducer: CounterFeature(), initialState: CounterFeature.State(),
    action: { $0 % 3 == 2 ? .decrementButtonTapped : .incrementButtonTapped }
  )
  return generatedTrace(shape, name: "counter", steps: steps)
}
