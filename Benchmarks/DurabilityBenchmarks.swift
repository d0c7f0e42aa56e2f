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
) -> Table {
  var table = Table(title: "Recording durability, \(shape.name) (per action, to a file)")
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("durability-\(getpid()).ndjson").path
  defer { unlink(path) }
  let modes: [(name: String, options: TraceRecorder.Options, operations: Int, baseline: String?)] =
    [
      ("no crash records (recordsCrashes: false)", .init(recordsCrashes: false), operations, nil),
      ("default: crash records, batched", .init(), operations, "no crash records"),
      ("durability: .everyStep", .init(durability: .everyStep), everyStepOperations, "default"),
    ]
  // At once: every action back to back, the writer behind. Then one a millisecond, as a
  // person drives an app: each mode against the one above it, paced by the same clock.
  for (name, options, count, baseline) in modes {
    var samples: [Double] = []
    for run in 0...harness.runs {
      let recording = RecordingRun.warmedUp(
        shape, capacity: count + warmUpSteps + 1, options: options, path: path)
      let clock = ContinuousClock()
      let start = clock.now
      for index in warmUpSteps..<(warmUpSteps + count) {
        _ = recording.reducer.reduce(into: &recording.state, action: shape.action(index))
      }
      let sent = clock.now
      recording.close()
      if run > 0 { samples.append((sent - start).nanoseconds / Double(count)) }
    }
    table.add(
      "\(name), \(count) at once", Harness.Figure(nanosecondsPerOperation: samples),
      baseline: baseline.map { base in
        table.rows.first { $0.name.hasPrefix(base) && $0.name.hasSuffix("at once") }!.name
      })
  }
  let pacing = Pacing(burst: 1, operations: 500)
  for (name, options, _, baseline) in modes {
    let figure = pacing.measure(harness) {
      RecordingRun.warmedUp(shape, capacity: 1 + warmUpSteps + 1, options: options, path: path)
    } send: { recording, index in
      _ = recording.reducer.reduce(into: &recording.state, action: shape.action(warmUpSteps + index))
    } between: { recording in
      recording.flush()
    } tearDown: { recording in
      recording.close()
    }
    table.add(
      "\(name), \(pacing.name)", figure,
      baseline: baseline.map { base in
        table.rows.first { $0.name.hasPrefix(base) && $0.name.hasSuffix(pacing.name) }!.name
      })
  }
  return table
}
