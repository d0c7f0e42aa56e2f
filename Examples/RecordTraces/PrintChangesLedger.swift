import Architecture
import Foundation
import Recorder

// `record-traces --ledger-print-changes <steps> <file>` records the ledger of TrapSession.swift
// through `._printChanges()` as well: the same actions, printed by TCA's console view on
// standard output and recorded to <file>, for the README's `log --follow --changed` beside it.

/// Records `steps` postings, printing each change as `_printChanges` does, then closes.
func recordLedgerPrintingChanges(steps: Int, path: String) throws -> Never {
  let recorder = try TraceRecorder(path: path)
  let reducer = Ledger()._printChanges().recording(to: recorder)
  var state = Ledger.State()
  for index in 0..<steps {
    let account = index % 3 == 0 ? "savings" : "cash"
    _ = reducer.reduce(into: &state, action: .posted(account: account, cents: 100 + index))
    // A pace a person follows, so the follower prints each step as it is recorded.
    usleep(200_000)
  }
  try recorder.close()
  exit(0)
}
