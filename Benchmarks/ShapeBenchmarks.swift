import Architecture
import Foundation
import Recorder

/// Issue 18's comparison: each state shape against its peers, in one run. Per action: the bare
/// reducer; the copy of the state that keeping the previous one forces (what any old-versus-new
/// recorder pays); `Store.send`; `_printChanges`-style work (a reflection dump of old and new
/// and a text diff); a `JSONEncoder` snapshot; and the recorder's app thread, total CPU and
/// bytes.
///
/// `only`, when given, keeps the shapes whose name holds it (`counter`, `dictionary`): a quicker
/// run for one row's figures; the full run is the reference.
@MainActor
func shapeBenchmarks(
  _ harness: Harness, sizes: [Int] = [1_000, 10_000], only: String? = nil
) -> [Table] {
  if let only {
    var table = Table(title: "Shapes whose name holds \"\(only)\" (per action)")
    let runs =
      sizes.flatMap { size in stateShapes(count: size).map { ($0, size) } }
      + longValueShapes().map { ($0, 1_000) } + [(ShapeRun(counterShape), 10)]
    for (run, size) in runs where run.name.contains(only) {
      var rows = run.measure(harness, size: size)
      rows.cpuBaseline = rows.snapshotRow
      rows.add(to: &table)
    }
    return [table]
  }
  var tables: [Table] = []
  for size in sizes {
    var table = Table(title: "State shapes, \(size) elements (per action)")
    var identifiedCPU: String?
    for run in stateShapes(count: size) {
      let rows = run.measure(harness, size: size, compareCPUWith: identifiedCPU)
      identifiedCPU = identifiedCPU ?? rows.cpuRow
      rows.add(to: &table)
    }
    tables.append(table)
  }
  var table = Table(title: "Long values (per action)")
  for run in longValueShapes() { run.measure(harness, size: 1_000).add(to: &table) }
  var counter = ShapeRun(counterShape).measure(harness, size: 10)
  counter.cpuBaseline = counter.snapshotRow
  counter.add(to: &table)
  tables.append(table)
  return tables
}

/// One shape's measurements, made generic over its reducer once and run without knowing it.
@MainActor
struct ShapeRun {
  let name: String
  let measure: @MainActor (Harness, Int, String?) -> ShapeRows
  let profile: @MainActor (Int) -> Void

  init<R: Reducer>(_ shape: Shape<R>) where R.State: Codable, R.Action: Codable {
    name = shape.name
    measure = { harness, size, cpuBaseline in
      measureShape(shape, harness, size: size, cpuBaseline: cpuBaseline)
    }
    profile = { steps in
      let recording = RecordingRun.warmedUp(shape, capacity: 64)
      for index in warmUpSteps..<(warmUpSteps + steps) {
        _ = recording.reducer.reduce(into: &recording.state, action: shape.action(index))
      }
      recording.close()
    }
  }

  @MainActor
  func measure(_ harness: Harness, size: Int, compareCPUWith baseline: String? = nil) -> ShapeRows {
    measure(harness, size, baseline)
  }
}

/// The rows of one shape, named after it.
struct ShapeRows {
  var rows: [(String, Harness.Figure, String?, Table.Unit)] = []
  var cpuRow = ""
  var snapshotRow = ""
  var cpuBaseline: String?

  func add(to table: inout Table) {
    for (name, figure, baseline, unit) in rows {
      table.add(name, figure, baseline: name == cpuRow ? cpuBaseline ?? baseline : baseline, unit: unit)
    }
  }
}

@MainActor
private func measureShape<R: Reducer>(
  _ shape: Shape<R>, _ harness: Harness, size: Int, cpuBaseline: String?
) -> ShapeRows where R.State: Codable, R.Action: Codable {
  // Whole-state work (a dump, a snapshot) costs milliseconds at 10,000 elements: fewer steps.
  let heavy = shape.name.contains("1 MB") || size >= 10_000
  let operations = heavy ? 200 : 2_000
  let wholeOperations = heavy ? 3 : (size >= 1_000 ? 30 : 2_000)
  let reducer = shape.reducer
  let name = shape.name
  var result = ShapeRows()
  let bare = "\(name): bare reducer"
  result.rows.append(
    (bare, cpuMeasure(harness, operations: operations) { shape.initialState } _: { state, index in
      _ = reducer.reduce(into: &state, action: shape.action(index))
    }, nil, .time))

  // Keeping the previous state makes the reducer's change copy what it changes.
  let copy = "\(name): bare reducer keeping the previous state (copy-on-write copy)"
  result.rows.append(
    (copy, cpuMeasure(harness, operations: operations) {
      (shape.initialState, shape.initialState)
    } _: { context, index in
      context.1 = context.0
      _ = reducer.reduce(into: &context.0, action: shape.action(index))
    }, bare, .time))

  result.rows.append(
    ("\(name): Store.send", cpuMeasure(harness, operations: operations) {
      Store(initialState: shape.initialState) { reducer }
    } _: { store, index in
      store.send(shape.action(index))
    }, bare, .time))

  result.rows.append(
    ("\(name): _printChanges-style dump and text diff", cpuMeasure(harness,
      operations: wholeOperations
    ) {
      (shape.initialState, 0)
    } _: { context, index in
      let old = context.0
      _ = reducer.reduce(into: &context.0, action: shape.action(index))
      context.1 &+= printChangesWork(old, context.0)
    }, bare, .time))

  let snapshot = "\(name): JSONEncoder snapshot"
  result.snapshotRow = snapshot
  result.rows.append(
    (snapshot, cpuMeasure(harness, operations: wholeOperations) {
      (shape.initialState, NaiveSnapshotRecorder())
    } _: { context, index in
      _ = reducer.reduce(into: &context.0, action: shape.action(index))
      context.1.record(context.0)
    }, bare, .time))

  // The recorder, all steps at once: the app thread, then the process's CPU until the writer
  // has written them all.
  let (appThread, cpu, bytes) = RecordingRun.atOnce(shape, harness, operations: operations)
  result.rows.append(
    ("\(name): recorder, app thread", Harness.Figure(nanosecondsPerOperation: appThread), copy,
      .time))
  // All at once, the app's thread goes at the writer's pace once the queue is full; one action
  // a millisecond, the writer keeps up and the row is the app's own work. Caches are colder
  // after each pause, so the copy is paced the same way for its baseline.
  let pacing = Pacing(burst: 1, operations: 200)
  let pacedCopy = "\(name): bare reducer keeping the previous state, one action a millisecond"
  result.rows.append(
    (pacedCopy, pacing.measure(harness) {
      (shape.initialState, shape.initialState)
    } send: { context, index in
      context.1 = context.0
      _ = reducer.reduce(into: &context.0, action: shape.action(index))
    }, copy, .time))
  let paced = pacing.measure(harness) {
    RecordingRun.warmedUp(shape, capacity: 256)
  } send: { recording, index in
    _ = recording.reducer.reduce(into: &recording.state, action: shape.action(warmUpSteps + index))
  } tearDown: { recording in
    recording.close()
  }
  result.rows.append(
    ("\(name): recorder, app thread, one action a millisecond", paced, pacedCopy, .time))
  result.cpuRow = "\(name): recorder, total CPU"
  result.cpuBaseline = cpuBaseline
  result.rows.append(
    (result.cpuRow, Harness.Figure(nanosecondsPerOperation: cpu), snapshot, .time))
  // Keyframes come after 16 times a state's bytes of steps: they add at most a sixteenth.
  result.rows.append(
    ("\(name): recorder, bytes per step (keyframes aside)",
      Harness.Figure(nanosecondsPerOperation: [bytes]), nil, .bytes))
  return result
}

/// What TCA's `_printChanges` does per action: dump old and new state by reflection, then diff
/// the two texts line by line (common lines at both ends trimmed, the rest printed).
func printChangesWork<State>(_ old: State, _ new: State) -> Int {
  var oldText = ""
  var newText = ""
  dump(old, to: &oldText)
  dump(new, to: &newText)
  let oldLines = oldText.split(separator: "\n", omittingEmptySubsequences: false)
  let newLines = newText.split(separator: "\n", omittingEmptySubsequences: false)
  let shorter = min(oldLines.count, newLines.count)
  var prefix = 0
  while prefix < shorter && oldLines[prefix] == newLines[prefix] { prefix += 1 }
  var suffix = 0
  while suffix < shorter - prefix
    && oldLines[oldLines.count - 1 - suffix] == newLines[newLines.count - 1 - suffix]
  {
    suffix += 1
  }
  var diff = ""
  for line in oldLines[prefix..<(oldLines.count - suffix)] { diff += "-" + line + "\n" }
  for line in newLines[prefix..<(newLines.count - suffix)] { diff += "+" + line + "\n" }
  return diff.utf8.count
}

/// Like `Harness.measure`, in CPU time of the process rather than wall-clock time: on a shared
/// machine, a loaded run stretches wall-clock time but not the CPU a step costs, and the
/// recorder's total is CPU time too.
func cpuMeasure<Context>(
  _ harness: Harness, operations: Int, setUp: () -> Context, _ body: (inout Context, Int) -> Void
) -> Harness.Figure {
  var samples: [Double] = []
  for run in 0...harness.runs {
    var context = setUp()
    let start = processCPUNanoseconds()
    for index in 0..<operations { body(&context, index) }
    let elapsed = processCPUNanoseconds() - start
    withExtendedLifetime(context) {}
    if run > 0 { samples.append(elapsed / Double(operations)) }
  }
  return Harness.Figure(nanosecondsPerOperation: samples)
}

/// `benchmarks profile-shape <name part> [--steps N]`: only the recorder loop of the first shape
/// whose name holds the text, for a profiler.
@MainActor
func shapeProfile(_ arguments: [String], steps: Int?) {
  let part = arguments.dropFirst().first ?? "dictionary"
  let runs = stateShapes(count: 10_000) + longValueShapes() + [ShapeRun(counterShape)]
  guard let run = runs.first(where: { $0.name.contains(part) }) else { return }
  run.profile(steps ?? 2_000)
}
