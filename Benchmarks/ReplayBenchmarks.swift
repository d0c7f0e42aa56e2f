import Architecture
import Counter
import Foundation
import Recorder
import Todos
import TraceJSON

/// What a bisect costs: a replay of every step through today's reducer, isolated on every core
/// and cumulative on one, against a baseline measured in the same run of just reading the
/// trace and decoding every action.
func replayBenchmarks(_ harness: Harness, todosOnly: Bool = false) -> [Table] {
  let todosPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Traces/todos.ndjson").path
  let todos = replayTable(
    "Bisect, Traces/todos.ndjson, 250 steps (whole trace)", path: todosPath,
    reducer: TodosFeature(), harness: harness, repeats: todosOnly ? 200 : 20
  )
  if todosOnly { return [todos] }
  let counterPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("tca-replay-bench-counter-1m.ndjson").path
  defer { try? FileManager.default.removeItem(atPath: counterPath) }
  let steps = 1_000_000
  let started = ContinuousClock.now
  recordCounterTrace(steps: steps, to: counterPath)
  let size = (try? FileManager.default.attributesOfItem(atPath: counterPath)[.size] as? Int) ?? 0
  print(
    "(recorded a \(steps)-step counter trace, \(size / 1_000_000) MB, in "
      + "\(ContinuousClock.now - started))\n"
  )
  return [
    replayTable(
      "Bisect, a 1,000,000-step counter trace (whole trace)", path: counterPath,
      reducer: CounterFeature(), harness: harness, repeats: 1
    ),
    todos,
  ]
}

private func replayTable<R: Reducer>(
  _ title: String, path: String, reducer: R, harness: Harness, repeats: Int
) -> Table where R.State: Codable, R.Action: Codable {
  var table = Table(title: title)
  let baseline = "decode only: read every line, decode every action"
  var decoded = 0
  table.add(baseline, harness.measure(operations: repeats) { () } _: { _, _ in
    decoded = decodeEveryAction(path, as: R.Action.self)
  })
  var replayed = 0
  for mode in [ReplayMode.isolated, .cumulative] {
    let workers = mode == .isolated ? ProcessInfo.processInfo.activeProcessorCount : 1
    let name = "bisect, \(mode.rawValue)" + (mode == .isolated ? " (\(workers) threads)" : "")
    table.add(name, harness.measure(operations: repeats) { () } _: { _, _ in
      let report = try! Replayer(reducer: reducer, options: .init(mode: mode))
        .replay(tracePath: path)
      precondition(report.matches, "the benchmark trace must replay without divergence")
      replayed = report.replayed
    }, baseline: baseline)
  }
  precondition(decoded == replayed, "decoded \(decoded) actions but replayed \(replayed) steps")
  return table
}

/// The baseline: what any replay must at least do.
func decodeEveryAction<Action: Decodable>(_ path: String, as: Action.Type) -> Int {
  let reader = try! TraceReader(path: path)
  let decoder = JSONValueDecoder()
  var count = 0
  while let record = try! reader.next() {
    guard case let .step(step) = record, let action = step.action else { continue }
    _ = try! decoder.decode(Action.self, from: action)
    count += 1
  }
  return count
}

/// Records a long counter session: counting, facts, the timer and resets, in the proportions
/// of `Traces/counter.ndjson`.
func recordCounterTrace(steps: Int, to path: String) {
  let recorder = try! TraceRecorder(path: path)
  let recording = CounterFeature().recording(to: recorder)
  var state = CounterFeature.State()
  let pattern: [CounterFeature.Action] = [
    .incrementButtonTapped, .incrementButtonTapped, .incrementButtonTapped,
    .decrementButtonTapped, .factButtonTapped, .factResponse("A fact about the number."),
    .toggleTimerButtonTapped, .timerTick, .timerTick, .toggleTimerButtonTapped,
  ]
  for index in 0..<steps {
    var action = pattern[index % pattern.count]
    if index % 1_000 == 999 { action = .resetButtonTapped }
    _ = recording.reduce(into: &state, action: action)
  }
  try! recorder.close()
}
