import Foundation

/// `shrink` on 2,000-action sessions of the tests' elevator (a crash needing 3 actions in
/// order) and greenhouse (a divergence, a condition), and the stepper's `skip` and `edit` on a
/// 10,000-step counter session, as the built tool runs them (issue 28's target: a shrink in at
/// most 60 s on 2 cores; issue 29's: a skip or edit in at most 2 s). Each is compared with one
/// cumulative replay of a session of the same length through the same host.
@MainActor
func historyBenchmarks(_ harness: Harness) -> [Table] {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let tool = folder.appendingPathComponent("tca-replay").path
  let mutants = folder.appendingPathComponent("mutant-replay-host").path
  let examples = folder.appendingPathComponent("example-replay-host").path
  for binary in [tool, mutants, examples] where !FileManager.default.isExecutableFile(atPath: binary) {
    print("warning: \(binary) is missing: `swift build -c release` first")
  }
  let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("tca-replay-benchmark-history-\(getpid())").path
  try! FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: scratch) }
  let elevator = scratch + "/elevator.ndjson"
  let greenhouse = scratch + "/greenhouse.ndjson"
  // The elevator's recording process dies of its crash, as the app's would.
  _ = runToEnd([mutants, "record-long", "elevator-resume-trap", "2000", elevator])
  run([mutants, "record-long", "greenhouse", "2000", greenhouse])
  let host = mutants + " shrink-apps"

  var shrinks = Table(title: "shrink of 2,000-action sessions, load " + loadAverage())
  // The greenhouse's: the elevator's replay ends in a crash, whose backtrace dominates it.
  let replay = "one cumulative replay, greenhouse (baseline)"
  shrinks.add(replay, harness.measure(operations: 1) { () } _: { _, _ in
    _ = runToEnd([tool, "bisect", greenhouse, "--host", host, "--mode", "cumulative"])
  })
  let cases: [(String, [String])] = [
    ("shrink a crash, elevator", [elevator]),
    ("shrink a divergence, greenhouse", [greenhouse]),
    ("shrink --until, greenhouse", [greenhouse, "--until", "/zones/1/moisture >= 90"]),
  ]
  for (name, arguments) in cases {
    shrinks.add(name, harness.measure(operations: 1) { () } _: { _, _ in
      run([tool, "shrink"] + arguments + ["--host", host, "--output", scratch + "/shrunk.ndjson"])
    }, baseline: replay)
  }
  shrinks.title += " → " + loadAverage()

  let counter = recordedCounterSession(steps: 10_000)
  var whatIfs = Table(title: "what-if on a 10,000-step counter session, load " + loadAverage())
  let counterReplay = "one cumulative replay (baseline)"
  whatIfs.add(counterReplay, harness.measure(operations: 1) { () } _: { _, _ in
    run([tool, "bisect", counter, "--host", examples, "--mode", "cumulative"])
  })
  for command in ["skip 5", "edit 100 .decrementButtonTapped", "insert 5000 .resetButtonTapped"] {
    whatIfs.add("step: \(command)", harness.measure(operations: 1) { () } _: { _, _ in
      run([
        "/bin/sh", "-c", "printf '\(command)\\n' | \"$0\" step \"$1\" --host \"$2\" >/dev/null",
        tool, counter, examples,
      ])
    }, baseline: counterReplay)
  }
  whatIfs.title += " → " + loadAverage()
  return [shrinks, whatIfs]
}
