import Architecture
import Foundation
import Recorder
import Todos

/// Issue 34's targets for recording and replay by reflection, each in the same run as its
/// baseline: the todos app with `Codable` types against its twin with none (``PlainTodos``).
///
/// Recording: the reflecting recorder's total CPU per action on 1,000 todos against
/// `_printChanges`-style work on the same state (target: at most 0.05×), and against the typed
/// recorder (informative). Replay: a bisect of one session recorded by both, the twin's replayed
/// through the same `ReflectingReducer` a replay host uses (target: at most 1.5× the typed
/// bisect).
@MainActor
func reflectionBenchmarks(_ harness: Harness) -> [Table] {
  [reflectedRecordingTable(harness, count: 1_000), reflectedReplayTable(harness)]
}

@MainActor
private func reflectedRecordingTable(_ harness: Harness, count: Int) -> Table {
  let load = loadAverage()
  var table = Table(title: "Recording by reflection, \(count) todos, toggling one (per action)")
  let typed = todosToggleShape(count: count)
  let plain = plainTodosToggleShape(count: count)
  let operations = 2_000

  let printChanges = "plain twin: _printChanges-style dump and text diff"
  table.add(
    printChanges,
    cpuMeasure(harness, operations: 30) { (plain.initialState, 0) } _: { context, index in
      let old = context.0
      _ = plain.reducer.reduce(into: &context.0, action: plain.action(index))
      context.1 &+= printChangesWork(old, context.0)
    })

  let typedRun = RecordingRun.atOnce(typed, harness, operations: operations)
  let typedCPU = "Codable todos: typed recorder, total CPU"
  table.add(typedCPU, Harness.Figure(nanosecondsPerOperation: typedRun.cpu), baseline: printChanges)

  let reflectedRun = RecordingRun.atOnce(
    plain, harness, operations: operations,
    record: RecordingRun<PlainTodosFeature>.reflectedRecording)
  let reflectedCPU = Harness.Figure(nanosecondsPerOperation: reflectedRun.cpu)
  table.add(
    "plain twin: reflected recorder, total CPU", reflectedCPU, baseline: printChanges)
  table.add(
    "plain twin: reflected recorder, total CPU (against the typed recorder)", reflectedCPU,
    baseline: typedCPU)
  table.add(
    "Codable todos: typed recorder, app thread",
    Harness.Figure(nanosecondsPerOperation: typedRun.appThread))
  table.add(
    "plain twin: reflected recorder, app thread",
    Harness.Figure(nanosecondsPerOperation: reflectedRun.appThread),
    baseline: "Codable todos: typed recorder, app thread")
  table.add(
    "Codable todos: typed recorder, bytes per step",
    Harness.Figure(nanosecondsPerOperation: [typedRun.bytesPerStep]), unit: .bytes)
  table.add(
    "plain twin: reflected recorder, bytes per step",
    Harness.Figure(nanosecondsPerOperation: [reflectedRun.bytesPerStep]),
    baseline: "Codable todos: typed recorder, bytes per step", unit: .bytes)
  table.title += ", load \(load) → \(loadAverage())"
  return table
}

/// Bisects of one todos session recorded twice, by the typed recorder from `TodosFeature` and
/// by the reflecting recorder from its twin, each replayed in process by `Replayer` as
/// `tca-replay bisect` replays it.
private func reflectedReplayTable(_ harness: Harness) -> Table {
  let actions = todosSessionActions()
  let directory = FileManager.default.temporaryDirectory
  let typedPath = directory.appendingPathComponent("tca-replay-bench-todos-typed.ndjson").path
  let plainPath = directory.appendingPathComponent("tca-replay-bench-todos-plain.ndjson").path
  defer {
    try? FileManager.default.removeItem(atPath: typedPath)
    try? FileManager.default.removeItem(atPath: plainPath)
  }
  recordSession(TodosFeature(), TodosFeature.State(), actions, to: typedPath) {
    $0.recording(to: $1)
  }
  recordSession(
    PlainTodosFeature(), PlainTodosFeature.State(), actions.map(PlainTodosFeature.Action.init),
    to: plainPath
  ) { $0.recording(to: $1) }

  let load = loadAverage()
  var table = Table(
    title: "Bisect of a \(actions.count)-step todos session: Codable types against none "
      + "(whole trace)")
  let repeats = 20
  // Wall-clock time, what a user waits for, and the process's CPU time (all threads), which a
  // loaded machine stretches less.
  for clock in ["wall clock", "CPU"] {
    let measure = { (body: () -> Void) -> Harness.Figure in
      clock == "CPU"
        ? cpuMeasure(harness, operations: repeats) { () } _: { _, _ in body() }
        : harness.measure(operations: repeats) { () } _: { _, _ in body() }
    }
    for mode in [ReplayMode.isolated, .cumulative] {
      let workers = mode == .isolated ? ProcessInfo.processInfo.activeProcessorCount : 1
      let suffix =
        "\(mode.rawValue)" + (mode == .isolated ? " (\(workers) threads)" : "") + ", \(clock)"
      let typed = "Codable todos: bisect, \(suffix)"
      table.add(
        typed,
        measure {
          bisect(TodosFeature(), path: typedPath, mode: mode, steps: actions.count)
        })
      table.add(
        "plain twin, by reflection: bisect, \(suffix)",
        measure {
          bisect(
            ReflectingReducer(base: PlainTodosFeature()), path: plainPath, mode: mode,
            steps: actions.count)
        }, baseline: typed)
    }
  }
  table.title += ", load \(load) → \(loadAverage())"
  return table
}

/// `benchmarks profile-replay typed|plain [--steps N]`: N cumulative bisects (default 20) of the
/// todos session, for a profiler: `--toggle-collect='*replayProfileLoop*'` leaves out recording.
func replayProfile(_ arguments: [String], repeats: Int?) {
  let plain = arguments.contains("plain")
  let actions = todosSessionActions()
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("tca-replay-profile-todos-\(plain ? "plain" : "typed").ndjson").path
  defer { try? FileManager.default.removeItem(atPath: path) }
  if plain {
    recordSession(
      PlainTodosFeature(), PlainTodosFeature.State(), actions.map(PlainTodosFeature.Action.init),
      to: path
    ) { $0.recording(to: $1) }
    replayProfileLoop(
      ReflectingReducer(base: PlainTodosFeature()), path: path, steps: actions.count,
      repeats: repeats ?? 20)
  } else {
    recordSession(TodosFeature(), TodosFeature.State(), actions, to: path) {
      $0.recording(to: $1)
    }
    replayProfileLoop(TodosFeature(), path: path, steps: actions.count, repeats: repeats ?? 20)
  }
  print("profile-replay: \(repeats ?? 20) cumulative bisects, \(plain ? "plain twin" : "Codable")")
}

@inline(never)
private func replayProfileLoop<R: Reducer>(_ reducer: R, path: String, steps: Int, repeats: Int)
where R.State: Codable, R.Action: Codable {
  for _ in 0..<repeats { bisect(reducer, path: path, mode: .cumulative, steps: steps) }
}

private func bisect<R: Reducer>(_ reducer: R, path: String, mode: ReplayMode, steps: Int)
where R.State: Codable, R.Action: Codable {
  let report = try! Replayer(reducer: reducer, options: .init(mode: mode)).replay(tracePath: path)
  precondition(report.matches, "the benchmark trace must replay without divergence")
  precondition(report.replayed == steps, "recorded \(steps) steps but replayed \(report.replayed)")
}

/// Records `actions` from `initialState`, reducing each in turn with the dependencies a session
/// of the examples uses; effects are not run (their actions are in the script).
private func recordSession<R: Reducer, Recorded: Reducer<R.State, R.Action>>(
  _ reducer: R, _ initialState: R.State, _ actions: [R.Action], to path: String,
  recording: (R, TraceRecorder) -> Recorded
) {
  let recorder = try! TraceRecorder(path: path)
  let recorded = recording(reducer, recorder)
  var state = initialState
  withDependencies {
    $0.uuid = .incrementing
    $0.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
  } operation: {
    for action in actions { _ = recorded.reduce(into: &state, action: action) }
  }
  try! recorder.close()
}

/// The actions of `recordTodosSession` (the session in `Traces/todos.ndjson`), with the actions
/// its effects sent (`saved`, `sortCompletedTodos`) in their places: adding todos and typing
/// their titles, completing, filtering, moving, deleting and clearing.
func todosSessionActions() -> [TodosFeature.Action] {
  let errands = [
    "Buy milk", "Call the plumber", "Water the plants", "Renew passport", "Book dentist",
    "Fix the bike", "Return library books", "Pay electricity", "Plan the trip", "Bake bread",
    "Wash the car", "Answer emails", "Buy stamps", "Clean the gutters", "Read a chapter",
  ]
  var actions: [TodosFeature.Action] = []
  var state = TodosFeature.State()
  withDependencies {
    $0.uuid = .incrementing
    $0.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
  } operation: {
    let reducer = TodosFeature()
    func send(_ action: TodosFeature.Action) {
      actions.append(action)
      _ = reducer.reduce(into: &state, action: action)
    }
    for (round, errand) in errands.enumerated() {
      send(.addTodoButtonTapped)
      let id = state.todos[0].id
      var title = ""
      for letter in errand.prefix(8 + round % 5) {
        title.append(letter)
        send(.todo(id: id, action: .titleChanged(title)))
      }
      send(.saved)
      if round >= 2, let open = state.todos.last(where: { !$0.isComplete }) {
        send(.todo(id: open.id, action: .checkboxTapped))
        send(.sortCompletedTodos)
        send(.saved)
      }
      if round % 3 == 2 {
        send(.filterPicked(.completed))
        send(.filterPicked(.active))
        send(.move(fromOffsets: IndexSet(integer: 0), toOffset: 2))
        send(.filterPicked(.all))
        send(.saved)
      }
      if round % 4 == 3, let last = state.todos.last {
        send(.deleteButtonTapped(id: last.id))
        send(.saved)
      }
    }
    send(.clearCompletedButtonTapped)
    send(.saved)
  }
  return actions
}
