import Architecture
import Counter
import Foundation
import Recorder
import ReplayMutants
import Testing
import Todos

@Suite("Replaying a trace through today's reducer")
struct ReplayerTests {
  @Test(
    "the unchanged example reducers replay their traces with no divergence, every step replayed",
    arguments: Example.allCases, ReplayMode.allCases
  )
  func unchangedExamples(example: Example, mode: ReplayMode) async throws {
    let report = try await example.replay(mode)
    let trace = try RecordedTrace(example.path)
    #expect(report.divergences == [])
    #expect(report.divergentSteps == 0)
    #expect(report.steps == trace.steps.count)
    #expect(report.replayed == trace.steps.count)
    #expect(report.notReplayable == [])
    #expect(report.unknown == 0)
    #expect(report.warnings == [])
  }

  @Test(
    "the todos, composed-app and bookshelf traces read uuid() and date.now while reducing, and replay exactly",
    arguments: [Example.todos, .composedApp, .bookshelf], ReplayMode.allCases
  )
  func recordedDependenciesAreFedBack(example: Example, mode: ReplayMode) async throws {
    let trace = try RecordedTrace(example.path)
    let reads = trace.steps.flatMap(\.dependencies)
    #expect(reads.contains { if case .uuid = $0 { true } else { false } })
    if example != .composedApp {
      #expect(reads.contains { if case .date = $0 { true } else { false } })
    }
    // Under the test runner a live uuid() or date.now would be reported and would differ.
    var report: ReplayReport?
    let issues = try await withIssueCapture { report = try await example.replay(mode) }
    #expect(report?.matches == true)
    #expect(issues == [])
  }

  @Test(
    "a deliberately changed reducer is caught at exactly the first step it changes, with the right paths",
    arguments: Mutant.behavioural, ReplayMode.allCases
  )
  func mutantsAreCaught(mutant: Mutant, mode: ReplayMode) async throws {
    let expected = try mutant.expectedDivergences()
    let report = try await mutant.replay(mode)
    let divergence = try #require(report.firstDivergence)
    #expect(divergence.step == expected.steps[0])
    #expect(divergence.reason == .state)
    #expect(Set(divergence.differences.map(\.path.description)) == Set(expected.paths))
    let recorded = try RecordedTrace(Paths.trace(mutant.traceName)).steps[divergence.step]
    #expect(divergence.label == recorded.label)
    #expect(divergence.action == recorded.action)
    #expect(divergence.origin.kind == "effect")
  }

  @Test(
    "isolated mode finds every step where the changed reducer disagrees, and only those",
    arguments: Mutant.behavioural
  )
  func isolatedFindsEveryDivergence(mutant: Mutant) async throws {
    let expected = try mutant.expectedDivergences()
    let report = try await mutant.replay(.isolated, maximumDivergences: 1_000)
    #expect(report.divergences.map(\.step) == expected.steps)
    #expect(report.divergentSteps == expected.steps.count)
  }

  @Test("cumulative mode stops at the first divergence and lists the steps that led there")
  func cumulativeStopsAtFirst() async throws {
    let report = try await Mutant.savedDateDropped.replay(.cumulative)
    let divergence = try #require(report.firstDivergence)
    #expect(report.divergentSteps == 1)
    #expect(report.steps == divergence.step + 1)
    #expect(divergence.precedingSteps.map(\.index) == Array(divergence.step - 5..<divergence.step))
  }

  @Test("a difference reports the recorded and the replayed value at its path")
  func expectedAndActualValues() async throws {
    let divergence = try #require(try await Mutant.factFailureAsFact.replay(.isolated).firstDivergence)
    guard case let .object(action)? = divergence.action,
      let message = action["factRequestFailed"]?["_0"]
    else {
      Issue.record("unexpected action \(String(describing: divergence.action))")
      return
    }
    let byPath = Dictionary(
      uniqueKeysWithValues: divergence.differences.map { ($0.path.description, $0) }
    )
    #expect(byPath["/factError"]?.expected == message)
    #expect(byPath["/factError"]?.actual == nil)
    #expect(byPath["/fact"]?.expected == nil)
    #expect(byPath["/fact"]?.actual == message)
  }

  @Test("a step recorded without its action is reported as not replayable, and the rest still replay", arguments: ReplayMode.allCases)
  func notReplayable(mode: ReplayMode) async throws {
    let path = try editedTrace("counter.ndjson") { lines in
      let line = lineOfStep(5, in: lines)
      lines[line] = lines[line].replacingOccurrences(
        of: #","action":{"factResponse":{"_0":"2 is a prime number."}},"#, with: #","action":null,"#
      )
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let report = try await replayTrace(path, CounterFeature(), mode)
    #expect(report.notReplayable.map(\.step.index) == [5])
    #expect(report.notReplayable.first?.reason == "the action could not be encoded when recorded")
    #expect(report.matches)
    #expect(report.replayed == report.steps - 1)
  }

  @Test("an action that no longer decodes is reported at its step, naming the field")
  func actionNoLongerDecodes() async throws {
    let path = try editedTrace("counter.ndjson") { lines in
      let line = lineOfStep(2, in: lines)
      lines[line] = lines[line].replacingOccurrences(
        of: #""action":{"incrementButtonTapped":{}}"#, with: #""action":{"incrementTapped":{}}"#
      )
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let divergence = try #require(
      try await replayTrace(path, CounterFeature(), .cumulative).firstDivergence
    )
    #expect(divergence.step == 2)
    #expect(divergence.reason == .actionDoesNotDecode)
    #expect(divergence.message?.contains("incrementTapped") == true)
  }

  @Test("a trace from a build whose State had another field is flagged, and the field that no longer decodes is named")
  func stateNoLongerDecodes() async throws {
    let path = try editedTrace("counter.ndjson") { lines in
      // As if the recording build called `count` `total`.
      lines = lines.map {
        $0.replacingOccurrences(of: #""count":"#, with: #""total":"#)
          .replacingOccurrences(of: #""/count""#, with: #""/total""#)
      }
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let report = try await replayTrace(path, CounterFeature(), .isolated)
    let divergence = try #require(report.firstDivergence)
    #expect(divergence.step == 0)
    #expect(divergence.reason == .stateDoesNotDecode)
    #expect(divergence.codingPath == "count")
    #expect(report.warnings.contains { $0.contains("fingerprint") && $0.contains("another build") })
  }

  @Test("a value redacted in the trace is unknown, not a divergence; the same change elsewhere is one")
  func redactedValuesAreUnknown() async throws {
    let plain = try recordCounter(redactions: [])
    let redacted = try recordCounter(redactions: [.key("fact")])
    defer {
      try? FileManager.default.removeItem(atPath: plain)
      try? FileManager.default.removeItem(atPath: redacted)
    }
    let shouting = Reduce<CounterFeature.State, CounterFeature.Action> { state, action in
      let effect = CounterFeature().reduce(into: &state, action: action)
      if case .factResponse = action { state.fact = state.fact?.uppercased() }
      return effect
    }
    let caught = try await replayTrace(plain, shouting, .isolated)
    #expect(caught.firstDivergence?.differences.map(\.path.description) == ["/fact"])
    #expect(try String(contentsOfFile: redacted, encoding: .utf8).contains("<redacted>"))
    for mode in ReplayMode.allCases {
      let report = try await replayTrace(redacted, shouting, mode)
      #expect(report.divergences == [], "\(mode)")
      #expect(report.replayed == 4, "\(mode)")
    }
  }

  @Test("uuid, date and random numbers read while reducing are fed back in order", arguments: ReplayMode.allCases)
  func randomNumbersAreFedBack(mode: ReplayMode) async throws {
    let path = Paths.temporary("dice.ndjson")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path)
    let reducer = Dice().recording(to: recorder)
    var state = Dice.State()
    withDependencies {
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(SplitMix64(seed: 7))
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 1_000))
    } operation: {
      for _ in 0..<50 { _ = reducer.reduce(into: &state, action: .roll) }
    }
    try recorder.close()
    let report = try await replayTrace(path, Dice(), mode)
    #expect(report.replayed == 50)
    #expect(report.matches)
  }

  /// Records a few counter steps, a fact among them, to a temporary file.
  private func recordCounter(redactions: [Redaction]) throws -> String {
    let path = Paths.temporary("counter.ndjson")
    let recorder = try TraceRecorder(path: path, options: .init(redactions: redactions))
    let reducer = CounterFeature().recording(to: recorder)
    var state = CounterFeature.State()
    for action: CounterFeature.Action in [
      .incrementButtonTapped, .factResponse("1 is a fact."), .incrementButtonTapped,
      .factResponse("2 is a prime number."),
    ] {
      _ = reducer.reduce(into: &state, action: action)
    }
    try recorder.close()
    return path
  }
}

/// Rolls dice: reads random numbers, a uuid and the date while reducing.
struct Dice: Reducer {
  struct State: Codable, Equatable {
    var rolls: [Int] = []
    var ids: [UUID] = []
    var rolledAt: Date?
  }
  enum Action: Codable, Equatable { case roll }

  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.rolls.append(withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) })
    state.ids.append(uuid())
    state.rolledAt = now
    return .none
  }
}

@Suite("Isolated replay on many threads")
struct ParallelReplayTests {
  /// Records `steps` counter steps, a failing fact request among every 50, to a temporary file.
  static func longTrace(steps: Int, keyframeInterval: Int) throws -> String {
    let path = Paths.temporary("long.ndjson")
    let recorder = try TraceRecorder(
      path: path, options: .init(keyframeInterval: keyframeInterval)
    )
    let reducer = CounterFeature().recording(to: recorder)
    var state = CounterFeature.State()
    for index in 0..<steps {
      let action: CounterFeature.Action =
        index % 50 == 49 ? .factRequestFailed("No fact is known about \(index).")
        : index % 3 == 2 ? .decrementButtonTapped : .incrementButtonTapped
      _ = reducer.reduce(into: &state, action: action)
    }
    try recorder.close()
    return path
  }

  @Test(
    "across chunk boundaries, every divergence is found with the steps before it, with or without keyframes",
    arguments: [100, 0]
  )
  func chunkBoundaries(keyframeInterval: Int) async throws {
    let path = try Self.longTrace(steps: 3_000, keyframeInterval: keyframeInterval)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let report = try await offPool {
      try Replayer(
        reducer: FactFailureAsFact(),
        options: .init(mode: .isolated, maximumDivergences: 1_000, precedingSteps: 5, workers: 2)
      ).replay(tracePath: path)
    }
    let expected = Array(stride(from: 49, to: 3_000, by: 50))
    #expect(report.steps == 3_000)
    #expect(report.divergences.map(\.step) == expected)
    for divergence in report.divergences {
      #expect(divergence.precedingSteps.map(\.index) == Array(divergence.step - 5..<divergence.step))
    }
  }

  @Test("a malformed line is reported with its line number, in both modes", arguments: ReplayMode.allCases)
  func malformedLine(mode: ReplayMode) async throws {
    let path = try editedTrace("counter.ndjson") { lines in lines[149] = "{\"kind\":\"step\",garbage" }
    defer { try? FileManager.default.removeItem(atPath: path) }
    await #expect {
      try await replayTrace(path, CounterFeature(), mode)
    } throws: { error in
      (error as? ReplayError)?.trace.line == 150
        && (error as? ReplayError)?.description.hasPrefix("\(path):150: not valid JSON") == true
    }
  }
}

@Suite("Replaying large states")
struct LargeStateReplayTests {
  /// A todos session over 80 todos: a state big enough that replay walks only what changed.
  static func record() throws -> (path: String, toggles: [Int]) {
    let path = Paths.temporary("large-todos.ndjson")
    let recorder = try TraceRecorder(path: path)
    let reducer = TodosFeature().recording(to: recorder)
    var state = TodosFeature.State()
    var index = 0
    var toggles: [Int] = []
    withDependencies {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 800_000_000))
    } operation: {
      func send(_ action: TodosFeature.Action) {
        _ = reducer.reduce(into: &state, action: action)
        index += 1
      }
      for _ in 0..<80 { send(.addTodoButtonTapped) }
      for todo in state.todos { send(.todo(id: todo.id, action: .titleChanged("Todo \(todo.id)"))) }
      send(.saved)
      for todo in state.todos.elements.enumerated() where todo.offset.isMultiple(of: 7) {
        toggles.append(index)
        send(.todo(id: todo.element.id, action: .checkboxTapped))
      }
      send(.sortCompletedTodos)
      send(.saved)
    }
    try recorder.close()
    return (path, toggles)
  }

  @Test("an unchanged reducer replays a trace of large states, in both modes", arguments: ReplayMode.allCases)
  func unchanged(mode: ReplayMode) async throws {
    let (path, _) = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let report = try await replayTrace(path, TodosFeature(), mode)
    #expect(report.matches)
    #expect(report.replayed == report.steps)
  }

  @Test("a change in one row of a large state is caught at each step it makes a difference", arguments: ReplayMode.allCases)
  func changedRow(mode: ReplayMode) async throws {
    let (path, toggles) = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let ignoresTicks = Reduce<TodosFeature.State, TodosFeature.Action> { state, action in
      if case .todo(_, .checkboxTapped) = action { return .none }
      return TodosFeature().reduce(into: &state, action: action)
    }
    let report = try await replayTrace(path, ignoresTicks, mode, 100)
    let trace = try RecordedTrace(path)
    let expectedPath = trace.steps[toggles[0]].patch.operations.last!.path.description
    #expect(report.firstDivergence?.step == toggles[0])
    #expect(report.firstDivergence?.differences.map(\.path.description) == [expectedPath])
    if mode == .isolated {
      #expect(report.divergences.map(\.step) == toggles)
    }
  }
}

/// Progress is a replay host's sign of life: it must come as steps are reduced, not as they are
/// read, or a host whose reducer is slow goes silent while its threads work.
@Suite("Replay progress")
struct ReplayProgressTests {
  final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func append(_ value: Int) { lock.withLock { values.append(value) } }
    var all: [Int] { lock.withLock { values } }
  }

  @Test(
    "every mode reports progress after each step it reduces, counting up to every step",
    arguments: [(ReplayMode.isolated, 3_000, 50), (.isolated, 400, 0), (.cumulative, 400, 0)])
  func afterEachStep(mode: ReplayMode, steps: Int, keyframeInterval: Int) async throws {
    let path = try ParallelReplayTests.longTrace(steps: steps, keyframeInterval: keyframeInterval)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let counts = Counts()
    let report = try await offPool {
      try Replayer(
        reducer: CounterFeature(),
        options: .init(mode: mode, workers: 2, progress: { counts.append($0) })
      ).replay(tracePath: path)
    }
    #expect(report.steps == steps)
    #expect(counts.all.count == steps)
    #expect(counts.all.max() == steps)
  }
}

/// A state whose shape changes as it runs: an optional set, a dictionary's keys.
private struct Notebook: Reducer {
  struct State: Codable, Equatable {
    var note: String?
    var tags: [String: Int] = [:]
  }
  enum Action: Codable, Equatable {
    case noted(String)
    case tagged(String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .noted(text): state.note = text
    case let .tagged(tag): state.tags[tag, default: 0] += 1
    }
    return .none
  }
}

@Suite("Replaying rotated segments")
struct RotatedSegmentReplayTests {
  @Test("a later segment, whose state set an optional and a key, is not from another build")
  func laterSegmentFingerprint() throws {
    let path = Paths.temporary("notebook.ndjson")
    defer {
      for suffix in ["", ".1", ".2"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let recorder = try TraceRecorder(
      path: path, options: .init(limit: .rotate(maxBytes: 1, keep: 2)))
    let reducer = Notebook().recording(to: recorder)
    var state = Notebook.State()
    for action in [Notebook.Action.noted("a"), .tagged("x"), .tagged("y"), .noted("b")] {
      _ = reducer.reduce(into: &state, action: action)
    }
    try recorder.close()
    for segment in [path, path + ".1", path + ".2"] {
      let report = try Replayer(reducer: Notebook()).replay(tracePath: segment)
      #expect(report.warnings == [], "\(segment)")
      #expect(report.matches, "\(segment)")
    }
  }
}
