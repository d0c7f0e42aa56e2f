import ExampleSessions
import Foundation
import Recorder

// Re-records the sample traces: `swift run record-traces [directory]` (default: Traces).
//
// `record-traces --until-killed <file>` records the counter without end; the crash-safety
// test kills it with SIGKILL and checks what is left on disk. `--editor-until-killed` does the
// same with a text editor's big string state, for the kill tests (see EditorUnderKill.swift).
// `record-traces --trap-at <n> <file>` records a ledger that crashes while reducing step <n>
// (see TrapSession.swift). `--ledger-rotating` records that ledger into rotated segments for
// `log --follow`'s tests (see RotatingLedger.swift). `--ledger-print-changes` records it through
// `._printChanges()` too (see PrintChangesLedger.swift).

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--until-killed", arguments.count == 2 {
  // Die with the test that started us, even if it is killed before it can kill us: once the
  // parent is gone, this process is re-parented and getppid() changes.
  let parent = getppid()
  Thread.detachNewThread {
    while getppid() == parent { usleep(100_000) }
    exit(1)
  }
  let recorder = try TraceRecorder(path: arguments[1], options: .init(keyframeInterval: 50))
  while true {
    await ExampleSession.counter.record(to: recorder)
  }
}

if arguments.first == "--editor-until-killed", arguments.count == 4 {
  try Editor.recordUntilKilled(limit: arguments[1], path: arguments[2], logPath: arguments[3])
}

if arguments.first == "--exit-without-close", arguments.count == 3, let count = Int(arguments[1]) {
  // Records `count` steps of the counter, then exits without closing the recorder, as an app
  // that never calls close() does: the trace must still hold every step and its end record.
  let recorder = try TraceRecorder(path: arguments[2], options: .init(keyframeInterval: 0))
  await ExampleSession.recordCounterSteps(count, to: recorder)
  exit(0)
}

if arguments.first == "--return-without-close", arguments.count == 3,
  let count = Int(arguments[1])
{
  // The recorder is a local of the function that returns, as in an `@main` type's `main()`:
  // it is freed on return, before the process exits, and must still leave the end record.
  await ExampleSession.recordCounterStepsAndReturn(count, toPath: arguments[2])
  exit(0)
}

if arguments.first == "--kill-at-name-change", arguments.count == 5,
  let step = Int(arguments[2]), let change = Int(arguments[3])
{
  try recordUntilKilledAtNameChange(
    mode: arguments[1], step: step, change: change, path: arguments[4])
}

if arguments.first == "--trap-at", arguments.count >= 3, let steps = Int(arguments[1]) {
  let fault = arguments.firstIndex(of: "--signal").flatMap {
    $0 + 1 < arguments.count ? Ledger.Fault(rawValue: arguments[$0 + 1]) : nil
  }
  try recordLedgerUntilTrap(
    steps: steps, path: arguments[2], fault: fault ?? .trap,
    durability: arguments.contains("--every-step") ? .everyStep : .batched)
}

if arguments.first == "--ledger-rotating", arguments.count >= 5, let steps = Int(arguments[1]),
  let maxBytes = Int(arguments[2]), let keep = Int(arguments[3])
{
  try recordRotatingLedger(
    steps: steps, maxBytes: maxBytes, keep: keep, path: arguments[4],
    trap: arguments.contains("--trap"),
    perSecond: arguments.firstIndex(of: "--rate").flatMap {
      $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
    },
    stampsPath: arguments.firstIndex(of: "--stamps").flatMap {
      $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
    },
    lastSteps: arguments.firstIndex(of: "--last-steps").flatMap {
      $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
    },
    pauseEvery: arguments.firstIndex(of: "--pause-every").flatMap {
      $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
    })
}

if arguments.first == "--ledger-print-changes", arguments.count == 3,
  let steps = Int(arguments[1])
{
  try recordLedgerPrintingChanges(steps: steps, path: arguments[2])
}

if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    USAGE: record-traces [<directory>]
           record-traces --ledger-rotating <steps> <maxBytes> <keep> <file> [--trap]
                         [--rate <per second> --stamps <file>] [--last-steps <n>]
                         [--pause-every <n>]
           record-traces --ledger-print-changes <steps> <file>
           record-traces --trap-at <n> <file> [--signal trap|segv|abort] [--every-step]

    Plays the scripted example sessions and records each one to <directory>/<name>.ndjson.
    <directory> defaults to Traces.

    The other forms record a small ledger app live, for following and for the tests:
      --ledger-rotating       into rotated segments of <maxBytes>, keeping <keep>; --trap
                              crashes in the step after the last; --rate paces the actions
                              and --stamps writes when each returned; --last-steps records
                              with .lastSteps(n); --pause-every waits for a line on standard
                              input every n steps.
      --ledger-print-changes  through ._printChanges() and the recorder at once, a
                              fifth of a second apart, as the README shows.
      --trap-at               a ledger that crashes while reducing step <n>.
    """
  )
  exit(0)
}

let directory = arguments.first ?? "Traces"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
for session in ExampleSession.allCases {
  let path = "\(directory)/\(session.fileName)"
  let recorder = try TraceRecorder(
    path: path,
    options: .init(metadata: ["session": session.rawValue, "source": "record-traces"])
  )
  await session.record(to: recorder)
  try recorder.close()
  let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  print("recorded \(path) (\(size) bytes)")
}
