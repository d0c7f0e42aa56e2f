import Architecture
import Foundation

/// Fails the current test when `reducer` does not reproduce the trace at `path`.
///
/// ```swift
/// @Test func todosStillReplay() throws {
///   try assertReplay(trace: "Traces/todos.ndjson", reducer: TodosFeature())
/// }
/// ```
///
/// The failure, reported through ``reportIssue(_:fileID:filePath:line:column:)`` so it fails
/// XCTest and Swift Testing alike, is the replay report: the first divergent step, its action
/// and origin, the steps before it, and the expected and actual state at each differing path.
/// Steps that are not replayable are reported too, since they leave part of the trace unchecked.
/// A trace that ends in a crash has its crashing step sent last: a reducer that still crashes
/// there ends the test process, as any test that traps does (`tca-replay verify` runs it in a
/// replay host, which reports it instead); the report says when it no longer crashes.
///
/// - Parameters:
///   - path: The trace file.
///   - reducer: Today's reducer.
///   - mode: ``ReplayMode/isolated`` (the default) checks every step from its recorded state;
///     ``ReplayMode/cumulative`` replays from the initial state, as the user experienced it.
///   - withDependencies: Pins for dependencies the trace cannot hold (the app's clients), set
///     while states decode and steps reduce; the values the trace recorded win over them.
/// - Returns: The report, for further assertions.
/// - Throws: ``ReplayError`` when the trace is missing or malformed.
@discardableResult
public func assertReplay<Base: Reducer>(
  trace path: String,
  reducer: Base,
  mode: ReplayMode = .isolated,
  withDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) throws(ReplayError) -> ReplayReport where Base.State: Codable, Base.Action: Codable {
  let replayer = Replayer(
    reducer: reducer,
    options: .init(mode: mode, maximumDivergences: 3),
    withDependencies: withDependencies
  )
  let report = try replayer.replay(tracePath: path)
  if !report.matches || !report.notReplayable.isEmpty {
    reportIssue(
      "Replaying the trace does not reproduce the recording:\n\n\(report)",
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
  return report
}

/// Fails the current test when `reducer` does not reproduce the trace at `path`, from an
/// asynchronous test; the replay runs on a thread of its own, so it holds up none of the
/// threads Swift concurrency shares between tasks.
///
/// ```swift
/// @MainActor @Test func todosStillReplay() async throws {
///   try await assertReplay(trace: "Traces/todos.ndjson", reducer: TodosFeature())
/// }
/// ```
@discardableResult
public func assertReplay<Base: Reducer & Sendable>(
  trace path: String,
  reducer: Base,
  mode: ReplayMode = .isolated,
  withDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async throws(ReplayError) -> ReplayReport where Base.State: Codable, Base.Action: Codable {
  let replayer = Replayer(
    reducer: reducer,
    options: .init(mode: mode, maximumDivergences: 3),
    withDependencies: withDependencies
  )
  let boxed = UncheckedBox(replayer)
  let report = try await onOwnThread { () throws(ReplayError) in
    try boxed.value.replay(tracePath: path)
  }
  if !report.matches || !report.notReplayable.isEmpty {
    reportIssue(
      "Replaying the trace does not reproduce the recording:\n\n\(report)",
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }
  return report
}

/// Fails the current test when `reducer`, whose `State` or `Action` is not `Codable`, does not
/// reproduce the trace at `path`; recorded values are rebuilt by reflection.
@discardableResult
public func assertReplay<Base: Reducer>(
  trace path: String,
  reducer: Base,
  mode: ReplayMode = .isolated,
  withDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) throws(ReplayError) -> ReplayReport {
  try assertReplay(
    trace: path, reducer: ReflectingReducer(base: reducer), mode: mode,
    withDependencies: withDependencies, fileID: fileID, filePath: filePath, line: line,
    column: column)
}

/// Fails the current test when `reducer`, whose `State` or `Action` is not `Codable`, does not
/// reproduce the trace at `path`, from an asynchronous test.
@discardableResult
public func assertReplay<Base: Reducer & Sendable>(
  trace path: String,
  reducer: Base,
  mode: ReplayMode = .isolated,
  withDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async throws(ReplayError) -> ReplayReport {
  try await assertReplay(
    trace: path, reducer: ReflectingReducer(base: reducer), mode: mode,
    withDependencies: withDependencies, fileID: fileID, filePath: filePath, line: line,
    column: column)
}

/// Runs `body` on a new thread and waits for it without blocking a concurrency thread.
func onOwnThread<T: Sendable>(
  _ body: @escaping @Sendable () throws(ReplayError) -> T
) async throws(ReplayError) -> T {
  let result = await withCheckedContinuation {
    (continuation: CheckedContinuation<Result<T, ReplayError>, Never>) in
    let thread = Thread {
      continuation.resume(returning: Result { () throws(ReplayError) in try body() })
    }
    thread.stackSize = 8 << 20
    thread.start()
  }
  return try result.get()
}
