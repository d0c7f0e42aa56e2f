/// Wraps the reducer under test to record what a ``TestStore`` asserts against: the state after
/// each sent action, each action received from effects with the state it led to, and the
/// effects still running.
@MainActor
final class TestReducer<State, Action> {
  struct Received {
    let action: Action
    let state: State
  }

  private let base: (inout State, Action) -> Effect<Action>
  let ledger = EffectLedger()

  /// Where the test last sent or received, so a leftover effect is reported there.
  var location = CallSite.unknown
  /// The state right after the last `.send` action was reduced.
  private(set) var stateAfterSend: State?
  /// Actions effects sent, waiting to be asserted with `receive`.
  var received: [Received] = []
  /// Whether the effects the reducer returns are run; see ``TestStore/runsEffects``.
  var runsEffects = true

  init(_ base: @escaping (inout State, Action) -> Effect<Action>) {
    self.base = base
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effect = base(&state, action)
    switch ReduceContext.current?.origin {
    case .effect:
      received.append(Received(action: action, state: state))
    case .send, nil:
      stateAfterSend = state
    }
    guard runsEffects else { return .none }
    let record = EffectLedger.Record(action: customDump(action), location: location)
    let ledger = self.ledger
    return effect.mapRuns { operation in
      let key = ledger.begin(record)
      return { send in
        await operation(send)
        ledger.end(key)
      }
    }
  }
}

/// Effects that a test store started and that have not finished, readable from any thread.
final class EffectLedger: @unchecked Sendable {
  struct Record: Sendable {
    let action: String
    let location: CallSite
  }

  private let lock = Lock()
  private var running: [Int: Record] = [:]
  private var nextKey = 0

  func begin(_ record: Record) -> Int {
    lock.withLock {
      defer { nextKey += 1 }
      running[nextKey] = record
      return nextKey
    }
  }

  func end(_ key: Int) {
    lock.withLock { running[key] = nil }
  }

  /// The running effects, oldest first.
  var records: [Record] {
    lock.withLock { running.sorted { $0.key < $1.key }.map(\.value) }
  }

  var isEmpty: Bool { lock.withLock { running.isEmpty } }

  func removeAll() { lock.withLock { running.removeAll() } }
}

/// A place in the test's source, where an issue is attributed.
struct CallSite: Sendable {
  var fileID: StaticString
  var filePath: StaticString
  var line: UInt
  var column: UInt

  static let unknown = CallSite(fileID: #fileID, filePath: #filePath, line: 0, column: 0)
}

extension Effect {
  /// Rewrites every `.run` leaf of the effect tree.
  package func mapRuns(
    _ transform: (
      @escaping @Sendable (Send<Action>) async -> Void
    ) -> @Sendable (Send<Action>) async -> Void
  ) -> Self {
    switch operation {
    case .none, .send, .cancel:
      return self
    case .run(let priority, let operation):
      return Self(operation: .run(priority, transform(operation)))
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.mapRuns(transform) }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.mapRuns(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        operation: .cancellable(id: id, cancelInFlight: cancelInFlight, effect.mapRuns(transform))
      )
    }
  }
}
