import Architecture
import Bookshelf
import ComposedApp
import Counter
import Foundation
import Recorder
import ReplayMutants
import TestSupport
import Testing
import Todos
import TraceJSON

/// Where the package's files and the built executables are.
enum Paths {
  /// The package root: this file is `<root>/Tests/ReplayTests/Support.swift`.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A folder holding `Traces/` as today's recorder records it, made once per test run: replays
  /// are tested on fresh recordings, never only on committed ones. The tool runs from here, so
  /// its output names `Traces/counter.ndjson` as a user's run from the package root does.
  static let freshRoot: URL = {
    let folder = Scratch.url("replay-fresh")
    let traces = folder.appendingPathComponent("Traces").path
    do {
      let run = try ChildProcess.run(executable("record-traces"), [traces])
      precondition(run.status == 0, "record-traces exited \(run.status)")
    } catch {
      fatalError("cannot record the example sessions: \(error)")
    }
    return folder
  }()

  /// An example session's trace, recorded in this test run (see ``freshRoot``).
  static func trace(_ name: String) -> String {
    freshRoot.appendingPathComponent("Traces").appendingPathComponent(name).path
  }

  /// An executable built next to the test bundle.
  static func executable(_ name: String) -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent(name).path
  }

  /// A fresh path in the temporary directory.
  static func temporary(_ name: String) -> String {
    Scratch.root.appendingPathComponent("replay-\(UUID().uuidString)-\(name)").path
  }
}

/// A committed trace read whole, with the recorded state before and after each step.
struct RecordedTrace {
  var steps: [TraceStep] = []
  /// `states[i]` is the state before step `i`; `states[i + 1]` the state after it.
  var states: [JSONValue] = []

  init(_ path: String) throws {
    let reader = try TraceReader(path: path)
    while let record = try reader.next() {
      switch record {
      case let .header(header): states = [header.initialState]
      case let .step(step):
        steps.append(step)
        states.append(try step.patch.apply(to: states.last!))
      default: break
      }
    }
  }

  /// The steps whose recorded action satisfies `predicate`.
  func steps(where predicate: (JSONValue) -> Bool) -> [TraceStep] {
    steps.filter { $0.action.map(predicate) ?? false }
  }
}

/// The examples' trace files and the reducer each was recorded from.
enum Example: String, CaseIterable, CustomTestStringConvertible {
  case counter = "counter.ndjson"
  case todos = "todos.ndjson"
  case composedApp = "composed-app.ndjson"
  case bookshelf = "bookshelf.ndjson"

  var path: String { Paths.trace(rawValue) }
  var testDescription: String { rawValue }

  func replay(_ mode: ReplayMode, maximumDivergences: Int = 1) async throws -> ReplayReport {
    try await offPool { try replayNow(mode, maximumDivergences) }
  }

  private func replayNow(_ mode: ReplayMode, _ maximumDivergences: Int) throws -> ReplayReport {
    switch self {
    case .counter: try replayTraceNow(path, CounterFeature(), mode, maximumDivergences)
    case .todos: try replayTraceNow(path, TodosFeature(), mode, maximumDivergences)
    case .composedApp: try replayTraceNow(path, AppFeature(), mode, maximumDivergences)
    case .bookshelf: try replayTraceNow(path, BookshelfFeature(), mode, maximumDivergences)
    }
  }
}

/// Replays the trace at `path` through `reducer` with the library API.
func replayTrace<R: Reducer>(
  _ path: String, _ reducer: R, _ mode: ReplayMode, _ maximumDivergences: Int = 1
) async throws -> ReplayReport where R.State: Codable, R.Action: Codable {
  try await offPool { try replayTraceNow(path, reducer, mode, maximumDivergences) }
}

func replayTraceNow<R: Reducer>(
  _ path: String, _ reducer: R, _ mode: ReplayMode, _ maximumDivergences: Int = 1
) throws -> ReplayReport where R.State: Codable, R.Action: Codable {
  try Replayer(
    reducer: reducer, options: .init(mode: mode, maximumDivergences: maximumDivergences)
  ).replay(tracePath: path)
}

extension Mutant: CustomTestStringConvertible {
  public var testDescription: String { rawValue }

  /// The three mutants that change behaviour (the others break the host).
  static let behavioural: [Mutant] = [.timerOffByOne, .savedDateDropped, .factFailureAsFact]

  /// Replays this mutant's trace through the mutated reducer with the library API.
  func replay(_ mode: ReplayMode, maximumDivergences: Int = 1) async throws -> ReplayReport {
    let path = Paths.trace(traceName)
    switch self {
    case .timerOffByOne:
      return try await replayTrace(path, TimerOffByOne(), mode, maximumDivergences)
    case .savedDateDropped:
      return try await replayTrace(path, SavedDateDropped(), mode, maximumDivergences)
    case .factFailureAsFact:
      return try await replayTrace(path, FactFailureAsFact(), mode, maximumDivergences)
    case .crash, .hang, .slow, .pantryForceUnwrap, .unchanged, .clientRead, .clientPinned:
      fatalError("\(self) breaks the host, or changes no behaviour; it has nothing to replay")
    }
  }

  /// What the trace itself says this mutant must be caught at, worked out without replaying:
  /// the steps whose action the mutant handles differently, and the paths it changes there.
  func expectedDivergences() throws -> (steps: [Int], paths: [String]) {
    let trace = try RecordedTrace(Paths.trace(traceName))
    switch self {
    case .timerOffByOne:
      let ticks = trace.steps { $0["timer"]?["action"]?["tick"] != nil }
      // The path the recording itself changed at the first tick.
      let path = ticks[0].patch.operations.first { $0.name == "replace" }!.path.description
      return (ticks.map(\.index), [path])
    case .savedDateDropped:
      return (trace.steps { $0["saved"] != nil }.map(\.index), ["/lastSavedAt"])
    default:
      let failures = trace.steps { $0["factRequestFailed"] != nil }
      return (failures.map(\.index), ["/factError", "/fact"])
    }
  }
}

/// The result of running one of the package's executables.
struct Run {
  var status: Int32
  var output: String
  var errors: String

  /// Runs `executable` (built here, or an absolute path) with `arguments` from `folder` (the
  /// folder of fresh traces by default) and waits for it; `backtraces` leaves Swift's backtracer on.
  init(
    _ executable: String, _ arguments: [String], in folder: String? = nil,
    backtraces: Bool = false
  ) throws {
    var environment = Scratch.environment
    if backtraces { environment.removeValue(forKey: "SWIFT_BACKTRACE") }
    let child = try ChildProcess.run(
      executable.hasPrefix("/") ? executable : Paths.executable(executable), arguments,
      directory: folder ?? Paths.freshRoot.path, environment: environment
    )
    self.status = child.signal ?? child.status
    self.output = String(decoding: child.output, as: UTF8.self)
    self.errors = String(decoding: child.errors, as: UTF8.self)
  }

  /// `tca-replay` with `arguments`, run off the concurrency threads.
  static func tool(_ arguments: String...) async throws -> Run {
    try await tool(arguments)
  }

  /// `tca-replay` with `arguments`, run off the concurrency threads.
  static func tool(_ arguments: [String]) async throws -> Run {
    try await offPool { try Run("tca-replay", arguments) }
  }

  /// `executable` with `arguments`, run off the concurrency threads.
  static func run(_ executable: String, _ arguments: [String]) async throws -> Run {
    try await offPool { try Run(executable, arguments) }
  }
}

/// Writes `lines` of a committed trace, changed by `edit`, to a temporary file.
func editedTrace(_ name: String, edit: (inout [String]) -> Void) throws -> String {
  var lines = try String(contentsOfFile: Paths.trace(name), encoding: .utf8)
    .split(separator: "\n").map(String.init)
  edit(&lines)
  let path = Paths.temporary(name)
  try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// The index of the line holding step `index` in a trace's lines.
func lineOfStep(_ index: Int, in lines: [String]) -> Int {
  lines.firstIndex { $0.hasPrefix(#"{"kind":"step","index":\#(index),"#) }!
}

/// Runs blocking work (a replay, a child process) on a thread of its own, so tests that wait
/// hold up none of the few threads Swift concurrency shares with the other tests.
func offPool<T>(_ body: @escaping () throws -> T) async throws -> T {
  let box = UncheckedSendable(body)
  let result = await withCheckedContinuation {
    (continuation: CheckedContinuation<UncheckedSendable<Result<T, any Error>>, Never>) in
    let thread = Thread {
      continuation.resume(returning: UncheckedSendable(Result { try box.value() }))
    }
    thread.stackSize = 8 << 20
    thread.start()
  }
  return try result.value.get()
}

struct UncheckedSendable<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
