import Foundation

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
    USAGE: benchmarks [store|record|durability|reader|replay|all] [--runs <n>] [--steps <n>]

    store   Store.send throughput against calling the reducer directly.
    record  The cost of recording: app-thread time, total CPU and bytes per step; then
            durability: crash records and .everyStep against the modes below them.
    reader  Opening a trace, showing a random step, stepping back, peak memory.
    replay  Bisect (replay every step) against just decoding every action of the trace.
            (replay-todos: the todos trace only.)
    all     Everything (the default).

    --runs  How many times each figure is measured; the median is reported (default 7).
    --steps How many steps the generated counter trace has (default 1000000).

    For profilers (one loop each, no table; run under callgrind or perf):
      benchmarks profile-record counter|todos1000|todos10000 [--steps N] [--bare] [--dump PATH]
      benchmarks profile-store [--steps N] [--bare]
      benchmarks profile-array OP todos1000|todos10000 [--steps N]
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
if arguments.first == "profile-array" {
  arrayProfile(Array(arguments), steps: arguments.contains("--steps") ? counterSteps : nil)
  exit(0)
}
let suite = arguments.first { !$0.hasPrefix("-") && Int($0) == nil } ?? "all"
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
if suite == "reader" || suite == "all" {
  for table in readerBenchmarks(harness, counterSteps: counterSteps) {
    print(table.render(), terminator: "\n\n")
  }
}
if suite == "replay" || suite == "replay-todos" || suite == "all" {
  for table in replayBenchmarks(harness, todosOnly: suite == "replay-todos") {
    print(table.render(), terminator: "\n\n")
  }
}
