import Architecture
import Foundation
import Recorder

// `record-traces --ledger-rotating <steps> <maxBytes> <keep> <file> [--trap]` records the
// ledger of TrapSession.swift into segments of `maxBytes` (`.rotate(maxBytes:keep:)`), then
// closes the recorder, or with `--trap` crashes in the step after the last: the child that
// `log --follow`'s tests follow.

/// Records `steps` postings into rotated segments, a few at a time, then closes or traps.
func recordRotatingLedger(
  steps: Int, maxBytes: Int, keep: Int, path: String, trap: Bool
) throws -> Never {
  var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
  setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
  let recorder = try TraceRecorder(
    path: path,
    options: .init(keyframeInterval: 25, limit: .rotate(maxBytes: maxBytes, keep: keep)))
  let reducer = Ledger().recording(to: recorder)
  var state = Ledger.State()
  for index in 0..<steps {
    let account = index % 3 == 0 ? "savings" : "cash"
    _ = reducer.reduce(into: &state, action: .posted(account: account, cents: index))
    // Now and then a pause, so that a follower meets segments as they are written too.
    if index % 10 == 9 { usleep(1_000) }
  }
  if trap { _ = reducer.reduce(into: &state, action: .faulted(.trap)) }
  try recorder.close()
  exit(0)
}
