import Architecture
import Foundation
import Recorder

// `record-traces --trap-at <n> <file> [--signal trap|segv|abort] [--every-step]` records a
// ledger (a domain none of the examples has: a dictionary of balances, a journal of postings)
// and crashes while reducing step <n>: the crash-safety tests check that the trace holds steps
// 0…n−1 and a crash record naming step n.

/// A ledger: postings move cents into accounts; posting to an unknown account is a bug that
/// traps (a force-unwrap of `nil`), as a reducer's bug does in an app.
struct Ledger: Reducer {
  struct State: Codable, Equatable {
    var balances: [String: Int] = ["cash": 0, "savings": 0]
    var journal: [Posting] = []
  }

  struct Posting: Codable, Equatable {
    var account: String
    var cents: Int
  }

  enum Action: Codable, Equatable {
    case posted(account: String, cents: Int)
    case faulted(Fault)
  }

  /// How the reducer crashes when it reduces `.faulted`.
  enum Fault: String, Codable, Equatable {
    case trap, segv, abort
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .posted(account, cents):
      state.balances[account]! += cents
      // The last few postings: a state that stays small, so the writer keeps up in debug builds.
      state.journal.append(Posting(account: account, cents: cents))
      if state.journal.count > 8 { state.journal.removeFirst() }
    case .faulted(.trap):
      state.balances["missing"]! += 1
    case .faulted(.segv):
      UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1
    case .faulted(.abort):
      abort()
    }
    return .none
  }
}

/// Records `steps` postings as fast as the app can send them, then crashes in the next step.
func recordLedgerUntilTrap(
  steps: Int, path: String, fault: Ledger.Fault, durability: TraceRecorder.Durability
) throws -> Never {
  // A crashing test child must not spend time writing a core file.
  var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
  setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
  let recorder = try TraceRecorder(
    path: path, options: .init(keyframeInterval: 25, durability: durability))
  let reducer = Ledger().recording(to: recorder)
  var state = Ledger.State()
  for index in 0..<steps {
    let account = index % 3 == 0 ? "savings" : "cash"
    _ = reducer.reduce(into: &state, action: .posted(account: account, cents: index))
  }
  _ = reducer.reduce(into: &state, action: .faulted(fault))
  fatalError("the ledger did not crash")
}
