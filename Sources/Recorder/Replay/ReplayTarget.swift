import Architecture
import Foundation
import TraceJSON

/// A reducer a replay host can replay traces through, with its types' names erased.
///
/// ```swift
/// ReplayHost.run([ReplayTarget(CounterFeature()), ReplayTarget(TodosFeature())])
/// ```
// unchecked: closures over a reducer, not required Sendable; reducing leaves it unchanged
public struct ReplayTarget: @unchecked Sendable {
  /// The reducer's type name, as trace headers write it.
  public private(set) var reducer: String
  /// The full name of the reducer's `State`.
  public let stateType: String
  /// The full name of the reducer's `Action`.
  public let actionType: String
  private let replayTrace: (String, ReplayOptions) throws(ReplayError) -> ReplayReport
  private let runHistory: (History, LoadedRecording) throws -> HistoryOutcome
  private let blameStep: (Int, LoadedRecording) throws -> JSONValue

  /// Wraps `reducer`; `withDependencies` pins the dependencies a trace cannot hold, such as the
  /// app's clients, for every step replayed and every state decoded.
  ///
  /// ```swift
  /// ReplayHost.run([
  ///   ReplayTarget(AppFeature(), withDependencies: { $0.dataManager = .mock() })
  /// ])
  /// ```
  ///
  /// Values the trace recorded (`uuid`, `date`, random values, `locale`, `timeZone`,
  /// `calendar`, `temporaryDirectory`) override these for the steps that read them. A client
  /// read that nothing pins is named in the verdict.
  public init<Base: Reducer>(
    _ reducer: Base,
    withDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) where Base.State: Codable, Base.Action: Codable {
    self.reducer = String(describing: Base.self)
    self.stateType = recordedTypeName(Base.State.self)
    self.actionType = recordedTypeName(Base.Action.self)
    self.replayTrace = { (path, options) throws(ReplayError) in
      let replayer = Replayer(
        reducer: reducer,
        options: .init(
          mode: options.mode,
          maximumDivergences: options.maximumDivergences,
          precedingSteps: options.precedingSteps,
          workers: options.workers ?? ProcessInfo.processInfo.activeProcessorCount,
          progress: options.progress
        ),
        withDependencies: withDependencies
      )
      return try replayer.replay(tracePath: path)
    }
    self.runHistory = { history, recording in
      try HistoryRunner(reducer: reducer, updateDependencies: withDependencies)
        .run(history, in: recording)
    }
    self.blameStep = { step, recording in
      try BlameRunner(reducer: reducer, updateDependencies: withDependencies)
        .blame(step: step, in: recording)
    }
  }

  /// Wraps `reducer`, whose `State` or `Action` is not `Codable`: recorded values are rebuilt
  /// by reflection (see ``Reflected``), and any part with its own `Decodable` conformance
  /// with it.
  ///
  /// A value that cannot be rebuilt (a class, a closure, an existential) fails the replay with
  /// an error naming its place in the state or action.
  public init<Base: Reducer>(
    _ reducer: Base,
    withDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) {
    self.init(
      ReflectingReducer(base: reducer), withDependencies: withDependencies,
      reducer: String(describing: Base.self))
  }

  private init<Base: Reducer>(
    _ reflecting: ReflectingReducer<Base>,
    withDependencies: @escaping @Sendable (inout DependencyValues) -> Void,
    reducer name: String
  ) {
    self.init(reflecting, withDependencies: withDependencies)
    self.reducer = name
  }

  /// Replays the trace at `path` through this target's reducer.
  func replay(tracePath path: String, options: ReplayOptions) throws(ReplayError) -> ReplayReport {
    try replayTrace(path, options)
  }

  /// Whether this target recorded the trace with `header`: same `State` and `Action` types.
  func run(_ history: History, in recording: LoadedRecording) throws -> HistoryOutcome {
    try runHistory(history, recording)
  }

  /// Runs `step` again, instrumented, and answers who wrote what (protocol version 3).
  func blame(step: Int, in recording: LoadedRecording) throws -> JSONValue {
    try blameStep(step, recording)
  }

  func matches(_ header: TraceHeader) -> Bool {
    header.stateType == stateType && header.actionType == actionType
  }
}

/// The type-free part of ``Replayer/Options``.
struct ReplayOptions {
  var mode: ReplayMode = .isolated
  var maximumDivergences = 1
  var precedingSteps = 5
  /// How many threads reduce in isolated mode; `nil`: one per core.
  var workers: Int?
  var progress: (@Sendable (Int) -> Void)?
}
