import Architecture
import Foundation
import Recorder

/// What crash records and `durability: .everyStep` cost the app's thread, per action, each
/// against the mode below it, measured in the same run, writing to a real file.
@MainActor
func durabilityBenchmarks(_ harness: Harness) -> [Table] {
  [
    durabilityTable(counterShape, harness, operations: 20_000, everyStepOperations: 2_000),
    durabilityTable(
      todosToggleShape(count: 1_000), harness, operations: 2_000, everyStepOperations: 1_000),
  ]
}

@MainActor
private func durabilityTable<R: Reducer>(
  _ shape: Shape<R>, _ harness: Harness, operations: Int, everyStepOperations: Int
) -> Table where R.State: Codable, R.Action: Codable {
  var table = Table(title: "Recording durability, \(shape.name) (per action, to a file)")
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("durability-\(getpid()).ndjson").path
  defer { unlink(path) }
  let modes: [(name: String, options: TraceRecorder.Options, operations: Int)] = [
    ("no crash records (recordsCrashes: false)", .init(recordsCrashes: false), operations),
    ("default: crash records, batched", .init(), operations),
    ("durability: .everyStep", .init(durability: .everyStep), everyStepOperations),
  ]
  // At once: every action back to back, the writer behind. Then one a millisecond, as a
  // person drives an app. The modes take turns within each run, so that a load that comes
  // and goes on a shared machine falls on all of them alike; each is compared with the mode
  // above it.
  var atOnce = Array(repeating: [Double](), count: modes.count)
  var paced = Array(repeating: [Double](), count: modes.count)
  let pacing = Pacing(burst: 1, operations: 500)
  for run in 0...harness.runs {
    for (position, mode) in modes.enumerated() {
      let recording = RecordingRun.warmedUp(
        shape, capacity: mode.operations + warmUpSteps + 1, options: mode.options, path: path)
      let clock = ContinuousClock()
      let start = clock.now
      for index in warmUpSteps..<(warmUpSteps + mode.operations) {
        _ = recording.reducer.reduce(into: &recording.state, action: shape.action(index))
      }
      let sent = clock.now
      recording.close()
      if run > 0 { atOnce[position].append((sent - start).nanoseconds / Double(mode.operations)) }
    }
    guard run > 0 else { continue }
    for (position, mode) in modes.enumerated() {
      let figure = pacing.measure(Harness(runs: 1)) {
        RecordingRun.warmedUp(
          shape, capacity: 1 + warmUpSteps + 1, options: mode.options, path: path)
      } send: { recording, index in
        _ = recording.reducer.reduce(
          into: &recording.state, action: shape.action(warmUpSteps + index))
      } between: { recording in
        recording.flush()
      } tearDown: { recording in
        recording.close()
      }
      paced[position] += figure.nanosecondsPerOperation
    }
  }
  for (position, mode) in modes.enumerated() {
    table.add(
      "\(mode.name), \(mode.operations) at once",
      Harness.Figure(nanosecondsPerOperation: atOnce[position]),
      baseline: position == 0
        ? nil : "\(modes[position - 1].name), \(modes[position - 1].operations) at once")
  }
  for (position, mode) in modes.enumerated() {
    table.add(
      "\(mode.name), \(pacing.name)", Harness.Figure(nanosecondsPerOperation: paced[position]),
      baseline: position == 0 ? nil : "\(modes[position - 1].name), \(pacing.name)")
  }
  return table
}
