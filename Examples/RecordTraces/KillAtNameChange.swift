import Architecture
import Counter
import Foundation
import Recorder

#if canImport(Glibc)
  import Glibc
#endif

/// `record-traces --kill-at-name-change <mode> <step> <change> <trace>` records the counter,
/// one step at a time, each on disk before the next (`.everyStep`), and kills itself with
/// `SIGKILL` just before the `change`-th change of a trace file's names (0 is the first) made
/// while recording step `step`: the kill tests' way to stop a rotation, or the start, at
/// every point. `mode` is `keep-<n>` (a new segment before every step, `n` kept),
/// `last-steps` (`.lastSteps(1)`), or `start` (no limit; `step` is ignored: the count starts
/// with the recorder). Exits with 3 when there are not that many changes.
func recordUntilKilledAtNameChange(mode: String, step: Int, change: Int, path: String) throws
  -> Never
{
  var options = TraceRecorder.Options(keyframeInterval: 0, durability: .everyStep)
  switch mode {
  case "last-steps": options.limit = .lastSteps(1)
  case let keep where keep.hasPrefix("keep-"):
    options.limit = .rotate(maxBytes: 1, keep: Int(keep.dropFirst(5)) ?? 1)
  default: break
  }
  let changes = Atomic(0)
  let arm = {
    TraceFileHooks.willChangeNames = { _ in
      if changes.add(1) == change { kill(getpid(), SIGKILL) }
    }
  }
  if mode == "start" { arm() }
  let recorder = try TraceRecorder(path: path, options: options)
  let reducer = CounterFeature().recording(to: recorder)
  var state = CounterFeature.State()
  for index in 0...max(step, 1) {
    if index == step, mode != "start" { arm() }
    _ = reducer.reduce(into: &state, action: .incrementButtonTapped)
  }
  TraceFileHooks.willChangeNames = nil
  try recorder.close()
  exit(3)
}

/// A counter shared with the writer's thread.
private final class Atomic: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Int
  init(_ value: Int) { self.value = value }
  /// Adds `amount`; returns the value before.
  func add(_ amount: Int) -> Int {
    lock.withLock {
      defer { value += amount }
      return value
    }
  }
}
