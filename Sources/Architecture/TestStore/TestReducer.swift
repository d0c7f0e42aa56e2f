import Synchronization

/// Wraps the reducer under test to record what a ``TestStore`` asserts against: the state after
/// each sent action, each action received from effects with the state it led to, and the
/// effects still running.
@MainActor
final class TestReducer<State, Action> {
  struct Received {
    let action: Action
    let state: State
    /// Where the stack element id generator stood before the action was reduced.
    let stackElementIDs: StackElementIDGenerator
  }

  private let base: (inout State, Action) -> Effect<Action>
  let ledger = EffectLedger()

  /// Where the test last sent or received, so a leftover effect is reported there.
  var location = CallSite.unknown
  /// The state right after the last `.send` action was reduced.
  private(set) var stateAfterSend: State?
  /// Where the stack element id generator stood before the sent action was reduced.
  private(set) var stackElementIDsBeforeSend: StackElementIDGenerator?
  /// The step of the last action the test sent.
  private(set) var lastSentStep = -1
  /// The step of the sent action each step descends from through effects.
  private var sentStepOfStep: [Int: Int] = [:]
  /// Actions effects sent, waiting to be asserted with `receive`.
  var received: [Received] = []
  /// Whether the effects the reducer returns are run; see ``TestStore/runsEffects``.
  var runsEffects = true

  init(_ base: @escaping (inout State, Action) -> Effect<Action>) {
    self.base = base
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    // A copy that counts from here, so that a test's `$0.path.append(…)` gets the ids the
    // reducer's appends got.
    let stackElementIDs = DependencyValues._current.stackElementID.incrementingCopy()
    let effect = base(&state, action)
    let context = ReduceContext.current
    let sentStep: Int
    switch context?.origin {
    case .effect(let parent):
      sentStep = sentStepOfStep[parent] ?? parent
      received.append(
        Received(action: action, state: state, stackElementIDs: stackElementIDs))
    case .send, nil:
      sentStep = context?.step ?? -1
      lastSentStep = sentStep
      stateAfterSend = state
      stackElementIDsBeforeSend = stackElementIDs
    }
    if let step = context?.step { sentStepOfStep[step] = sentStep }
    // Effects off still cancel what earlier steps started with effects on.
    guard runsEffects else { return effect.cancellationsOnly }
    // Every run is in the ledger from now until its operation returns: the store numbers the
    // runs with the ledger's keys as it starts them, and reports their ends.
    let runs = effect.runCount
    guard runs > 0 else { return effect }
    let record = EffectLedger.Record(
      action: customDump(action), location: location, sentStep: sentStep)
    let first = ledger.begin(record, count: runs)
    return effect.observed(by: EffectObservation(first: first, step: 0, observer: ledger))
  }
}

/// Effects that a test store started and that have not finished, readable from any thread.
final class EffectLedger: EffectObserver, Sendable {
  struct Record: Sendable {
    let action: String
    let location: CallSite
    /// The step of the sent action the run descends from, through the actions effects sent.
    let sentStep: Int
  }

  private struct Runs {
    var running: [Int: Record] = [:]
    var nextKey = 0
  }

  private let runs = Mutex(Runs())

  /// Enters `count` runs of one action's effect; returns the first of their consecutive keys.
  func begin(_ record: Record, count: Int) -> Int {
    runs.withLock { runs in
      let first = runs.nextKey
      for key in first..<(first + count) { runs.running[key] = record }
      runs.nextKey += count
      return first
    }
  }

  func end(_ key: Int) {
    runs.withLock { $0.running[key] = nil }
  }

  /// A run ended, cancelled or not: it is no longer in flight.
  func effectEnded(_ effect: Int, step: Int, cancelled: Bool) {
    end(effect)
  }

  /// The running effects, oldest first.
  var records: [Record] {
    runs.withLock { $0.running.sorted { $0.key < $1.key }.map(\.value) }
  }

  var isEmpty: Bool { runs.withLock { $0.running.isEmpty } }

  /// Whether a run that descends from the sent action at `sentStep` is still running.
  func isRunning(from sentStep: Int) -> Bool {
    runs.withLock { $0.running.values.contains { $0.sentStep == sentStep } }
  }

  func removeAll() { runs.withLock { $0.running.removeAll() } }
}

/// A place in the test's source, where an issue is attributed.
struct CallSite: Sendable {
  var fileID: StaticString
  var filePath: StaticString
  var line: UInt
  var column: UInt

  static let unknown = CallSite(fileID: #fileID, filePath: #filePath, line: 0, column: 0)

  /// The `send` or `receive(replaying:)` of a test store reducing right now on this task, so
  /// that what a reducer does wrong (reading one recorded value too many) is reported there.
  @TaskLocal static var reducing: CallSite?
}
