import Architecture
import Foundation
import Recorder

// `record-traces --ledger-rotating <steps> <maxBytes> <keep> <file> [--trap]
// [--rate <per second> --stamps <file>]` records the ledger of TrapSession.swift into segments
// of `maxBytes` (`.rotate(maxBytes:keep:)`), then closes the recorder, or with `--trap` crashes
// in the step after the last: the child that `log --follow`'s tests follow. With `--rate`, it
// sends that many actions a second and writes `<index> <CLOCK_MONOTONIC ns>` to the stamps
// file as each returns, for `benchmarks follow`. With `--last-steps <n>` it records
// with `.lastSteps(n)` instead. With `--pause-every <n>`, it reads a line from standard input
// before every n-th step and before it closes or traps: a test releases it batch by batch.

/// Records `steps` postings into rotated segments, a few at a time, then closes or traps.
func recordRotatingLedger(
  steps: Int, maxBytes: Int, keep: Int, path: String, trap: Bool,
  perSecond: Int? = nil, stampsPath: String? = nil, lastSteps: Int? = nil, pauseEvery: Int? = nil
) throws -> Never {
  var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
  setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
  let recorder = try TraceRecorder(
    path: path,
    options: .init(
      keyframeInterval: 25,
      limit: lastSteps.map { .lastSteps($0) } ?? .rotate(maxBytes: maxBytes, keep: keep)))
  let reducer = Ledger().recording(to: recorder)
  var state = Ledger.State()
  let stamps = stampsPath.map { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) } ?? -1
  let start = monotonicNanoseconds()
  let pause = { (index: Int) in
    if let pauseEvery, index % pauseEvery == 0 || index == steps, index > 0 {
      _ = readLine()
    }
  }
  for index in 0..<steps {
    pause(index)
    let account = index % 3 == 0 ? "savings" : "cash"
    if let perSecond {
      // On a schedule, not after a fixed sleep: a late action does not delay the next ones.
      let due = start + UInt64(index) * 1_000_000_000 / UInt64(perSecond)
      while monotonicNanoseconds() < due { usleep(100) }
    }
    _ = reducer.reduce(into: &state, action: .posted(account: account, cents: index))
    if stamps >= 0 {
      let line = Array("\(index) \(monotonicNanoseconds())\n".utf8)
      _ = line.withUnsafeBytes { write(stamps, $0.baseAddress, $0.count) }
    }
    // Now and then a pause, so that a follower meets segments as they are written too.
    if perSecond == nil, index % 10 == 9 { usleep(1_000) }
  }
  pause(steps)
  if trap { _ = reducer.reduce(into: &state, action: .faulted(.trap)) }
  try recorder.close()
  exit(0)
}

private func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
