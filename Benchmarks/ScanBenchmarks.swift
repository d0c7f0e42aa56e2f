import Counter
import Foundation
import Recorder

/// Full scans of a long counter session, as the built `tca-replay` runs them, against `cat` of
/// the same file and against decoding every action (what any replay must at least do), all
/// measured in the same run.
///
/// The commands run as child processes, their output sent to /dev/null, so each figure is
/// what a person waits for.
@MainActor
func scanBenchmarks(_ harness: Harness, steps: Int) -> [Table] {
  let path = recordedCounterSession(steps: steps)
  let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let tool = folder.appendingPathComponent("tca-replay").path
  let host = folder.appendingPathComponent("example-replay-host").path
  for binary in [tool, host] where !FileManager.default.isExecutableFile(atPath: binary) {
    print("warning: \(binary) is missing: `swift build -c release` first")
  }
  var table = Table(
    title: "Full scans of a \(steps)-step counter session (\(size / 1_000_000) MB), load "
      + loadAverage())
  let cat = "cat (baseline)"
  table.add(cat, harness.measure(operations: 1) { () } _: { _, _ in run(["/bin/cat", path]) })
  let decode = "decode only: read every line, decode every action"
  table.add(decode, harness.measure(operations: 1) { () } _: { _, _ in
    _ = decodeEveryAction(path, as: CounterFeature.Action.self)
  }, baseline: cat)
  let commands: [(String, [String], String)] = [
    ("summary", ["summary", path], cat),
    ("log", ["log", path], cat),
    ("log --action '*Tick*'", ["log", path, "--action", "*Tick*"], cat),
    ("log --changed /count", ["log", path, "--changed", "/count"], cat),
    ("log --json", ["log", path, "--json"], cat),
    ("verify (replay host)", ["verify", path, "--host", host], decode),
  ]
  for (name, arguments, baseline) in commands {
    table.add(name, harness.measure(operations: 1) { () } _: { _, _ in
      run([tool] + arguments)
    }, baseline: baseline)
  }
  return [table]
}

/// The 1-, 5- and 15-minute load averages, as `uptime` prints them.
func loadAverage() -> String {
  let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
  return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// A counter session of `steps` steps, recorded once into a temporary file and reused.
@MainActor
func recordedCounterSession(steps: Int) -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent(
      "tca-replay-benchmark-counter-session-v\(traceFormatVersion)-\(steps).ndjson"
    ).path
  if FileManager.default.fileExists(atPath: path) { return path }
  print("Recording \(steps) steps of a counter session into \(path)…")
  recordCounterTrace(steps: steps, to: path + ".partial")
  try! FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
  return path
}

/// Runs `arguments` to completion, its output to /dev/null; traps unless it exits 0.
func run(_ arguments: [String]) {
  let exit = runToEnd(arguments)
  precondition(exit == 0, "\(arguments.joined(separator: " ")) failed: status \(exit)")
}

/// Runs `arguments` to completion, its output to /dev/null; returns its wait status.
func runToEnd(_ arguments: [String]) -> Int32 {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid = pid_t()
  let status = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
  precondition(status == 0, "cannot run \(arguments[0])")
  var exit: Int32 = 0
  while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
  return exit
}
