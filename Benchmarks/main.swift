import Foundation
import LongSessionApps

// Release-build benchmarks. Every figure is compared, in the same run, with a baseline.
//
//   swift run -c release benchmarks [store|record|reader|replay|all] [--runs N] [--steps N]

let arguments = CommandLine.arguments.dropFirst()
if let task = arguments.first, task.hasPrefix("_") {
  // A child process the reader benchmark measures the memory of.
  runReaderChild(Array(arguments))
  exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    USAGE: benchmarks [store|record|durability|shapes|reader|scan|hostile|verify-jobs|follow|
                       history|replay|reflection|all] [--runs <n>] [--steps <n>]
       benchmarks gen-test-build [--runs <n>] [--sessions chat-room,ledger,warehouse]

    store   Store.send throughput against calling the reducer directly.
    record  The cost of recording: app-thread time, total CPU and bytes per step; then
            durability: crash records and .everyStep against the modes below them.
    shapes  Plain arrays, dictionaries, sets, a 1 MB string and Data, and the counter, each
            against _printChanges-style work, a JSONEncoder snapshot, Store.send and the
            copy-on-write copy (issue 18).
    reader  Opening a trace, showing a random step, stepping back, peak memory.
    scan    summary, log and verify of a counter session, as the built tool runs them,
            against cat and decoding every action (`swift build -c release` first).
    hostile summary, log, state, show and gen-test of 1 MB and 10 MB adversarial traces (long
            patches, control characters), as the built tool runs them, against cat; and the
            stepper's watch and 16-star find on a 1 MB and a 10 MB string.
    verify-jobs  verify of 200 counter recordings with --jobs 2 against --jobs 1, as the built
            tool runs them (`swift build -c release` first); --steps sets their length
            (default 2000 here).
    history shrink of 2,000-action sessions (a crash, a divergence, a condition), and the
            stepper's skip, edit and insert on a 10,000-step counter session, each against one
            cumulative replay of the session, as the built tool runs them (`swift build -c
            release` first).
    follow  log --follow: from send returning to the line printed, p50, p95 and worst, at
            --rate actions a second (default 1000) for --seconds (default 10), against tail -F
            following the same recording; then its peak memory on a --steps session (default
            100000 here). `swift build -c release` first.
    replay  Bisect (replay every step) against just decoding every action of the trace.
            (replay-todos: the todos trace only.)
    reflection  Recording and replay by reflection (issue 34): the todos app's twin with no
            Codable, its reflecting recorder's total CPU against _printChanges-style work and
            the typed recorder, on 1,000 todos; then a bisect of one todos session recorded
            by both, the twin's against the Codable one's.
    all     Everything (the default).
    gen-test-build  Debug build time of the tests gen-test writes for the long sessions
            (Tests/LongSessions), against an empty test file in the same package (issue 35's
            bar: 90 s). Not in `all`: each build takes minutes. `swift build -c release`
            first; --runs defaults to 3 here.

    --runs  How many times each figure is measured; the median is reported (default 7).
    --steps How many steps the generated counter trace has (default 1000000).
    --only  shapes: only the shapes whose name holds this text (`--only counter`), each
            recorder's total CPU against its own snapshot.

    For profilers (one loop each, no table; run under callgrind or perf):
      benchmarks profile-record counter|todos1000|todos10000|plain1000 [--steps N] [--bare]
                                [--dump PATH]
      benchmarks profile-store [--steps N] [--bare]
      benchmarks profile-array OP todos1000|todos10000 [--steps N]
      benchmarks profile-shape 'plain array'|dictionary|set|'1 MB string'|'1 MB Data'|counter
      benchmarks profile-replay typed|plain [--steps N]   (N cumulative bisects of a session)
    """
  )
  exit(0)
}
var runs = 7
if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.endIndex,
  let value = Int(arguments[index + 1])
{
  runs = value
}
var counterSteps = 1_000_000
if let index = arguments.firstIndex(of: "--steps"), index + 1 < arguments.endIndex,
  let value = Int(arguments[index + 1])
{
  counterSteps = value
}
if arguments.first == "profile-store" {
  storeProfile(Array(arguments), steps: arguments.contains("--steps") ? counterSteps : nil)
  exit(0)
}
if arguments.first == "profile-record" {
  recordingProfile(Array(arguments), steps: arguments.contains("--steps") ? counterSteps : nil)
  exit(0)
}
if arguments.first == "profile-replay" {
  replayProfile(Array(arguments), repeats: arguments.contains("--steps") ? counterSteps : nil)
  exit(0)
}
if arguments.first == "profile-shape" {
  shapeProfile(Array(arguments), steps: arguments.contains("--steps") ? counterSteps : nil)
  exit(0)
}
if arguments.first == "profile-array" {
  arrayProfile(Array(arguments), steps: arguments.contains("--steps") ? counterSteps : nil)
  exit(0)
}
if arguments.first == "gen-test-build" {
  var sessions = LongSession.allCases
  if let index = arguments.firstIndex(of: "--sessions"), index + 1 < arguments.endIndex {
    sessions = arguments[index + 1].split(separator: ",").compactMap {
      LongSession(rawValue: String($0))
    }
  }
  let count = arguments.contains("--runs") ? runs : 3
  for table in await genTestBuildBenchmarks(runs: count, sessions: sessions) {
    print(table.render(), terminator: "\n\n")
  }
  exit(0)
}
let suite =
  arguments.enumerated().first { position, argument in
    !argument.hasPrefix("-") && Int(argument) == nil
      && (position == 0 || arguments[arguments.startIndex + position - 1] != "--only")
  }?.element ?? "all"
let harness = Harness(runs: runs)

#if DEBUG
  print("warning: a debug build; run `swift run -c release benchmarks` for real figures\n")
#endif

if suite == "store" || suite == "all" {
  for table in storeBenchmarks(harness) { print(table.render(), terminator: "\n\n") }
}
if suite == "record" || suite == "all" {
  for table in recordingBenchmarks(harness) { print(table.render(), terminator: "\n\n") }
}
if suite == "durability" || suite == "record" || suite == "all" {
  for table in durabilityBenchmarks(harness) { print(table.render(), terminator: "\n\n") }
}
if suite == "shapes" || suite == "all" {
  var only: String?
  if let index = arguments.firstIndex(of: "--only"), index + 1 < arguments.endIndex {
    only = arguments[index + 1]
  }
  for table in shapeBenchmarks(harness, only: only) { print(table.render(), terminator: "\n\n") }
}
if suite == "reader" || suite == "all" {
  for table in readerBenchmarks(harness, counterSteps: counterSteps) {
    print(table.render(), terminator: "\n\n")
  }
}
if suite == "scan" || suite == "all" {
  for table in scanBenchmarks(harness, steps: counterSteps) {
    print(table.render(), terminator: "\n\n")
  }
}
if suite == "hostile" || suite == "all" {
  for table in hostileInputBenchmarks(harness) { print(table.render(), terminator: "\n\n") }
  for table in stepperBenchmarks(harness) { print(table.render(), terminator: "\n\n") }
}
if suite == "replay" || suite == "replay-todos" || suite == "all" {
  for table in replayBenchmarks(harness, todosOnly: suite == "replay-todos") {
    print(table.render(), terminator: "\n\n")
  }
}
if suite == "reflection" || suite == "all" {
  for table in reflectionBenchmarks(harness) { print(table.render(), terminator: "\n\n") }
}
if suite == "history" || suite == "all" {
  for table in historyBenchmarks(harness) { print(table.render(), terminator: "\n\n") }
}
if suite == "follow" || suite == "all" {
  let option = { (name: String, fallback: Int) -> Int in
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex else {
      return fallback
    }
    return Int(arguments[index + 1]) ?? fallback
  }
  let tables = followBenchmarks(
    harness, rate: option("--rate", 1_000), seconds: option("--seconds", 10),
    longSteps: arguments.contains("--steps") ? counterSteps : 100_000)
  for table in tables { print(table.render(), terminator: "\n\n") }
}
if suite == "verify-jobs" || suite == "all" {
  let steps = arguments.contains("--steps") ? counterSteps : 2_000
  for table in verifyJobsBenchmarks(harness, steps: steps) {
    print(table.render(), terminator: "\n\n")
  }
}
