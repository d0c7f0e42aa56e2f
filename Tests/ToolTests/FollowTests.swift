import Foundation
import Recorder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `log --follow` against a real recorder: a `record-traces` child records a ledger into
/// rotated segments while the follower, started first, reads them as they are written.
@Suite("log --follow")
struct FollowTests {
  typealias Runner = ToolRunner

  static let recorder = Runner.executable.deletingLastPathComponent()
    .appendingPathComponent("record-traces").path

  /// A fresh directory for one test's trace.
  static func scratch() throws -> String {
    let directory = Scratch.url("follow")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
  }

  /// Starts `log --follow` on `trace`, which does not exist yet, and waits until it says so.
  static func startFollower(_ trace: String, _ options: [String] = []) throws -> BackgroundProcess {
    let follower = try BackgroundProcess(
      Runner.executable.path, ["log", trace, "--follow"] + options)
    #expect(follower.wait(until: { $0.errors.contains("waiting for \(trace) to appear") }))
    return follower
  }

  /// What plain `log` prints for a finished trace: every kept segment, oldest first.
  static func logOfSegments(_ trace: String, _ options: [String] = []) throws -> String {
    let log = try Runner.run(["log", trace] + options)
    #expect(log.status == 0, "\(log.errors)")
    return log.output
  }

  @Test("a step is printed or named lost, never dropped silently, when segments rotate away first")
  func rotatedAway() throws {
    let trace = try Self.scratch() + "/ledger.ndjson"
    let follower = try Self.startFollower(trace)
    // Segments of about 15 steps, two kept: the recorder outruns a follower that polls.
    let recording = try ChildProcess.run(
      Self.recorder, ["--ledger-rotating", "300", "2000", "2", trace], timeLimit: 120)
    #expect(recording.status == 0)
    let followed = follower.waitForExit()
    #expect(followed.status == 0 && !followed.timedOut)
    var steps = Set(
      String(decoding: followed.output, as: UTF8.self).split(separator: "\n").compactMap {
        Int($0.prefix(6).trimmingCharacters(in: .whitespaces))
      })
    let notes = String(decoding: followed.errors, as: UTF8.self)
    let lost = /steps (\d+)…(\d+) were rotated away/
    for match in notes.matches(of: lost) {
      let range = Int(match.1)!...Int(match.2)!
      #expect(steps.isDisjoint(with: range), "\(range) both printed and lost")
      steps.formUnion(range)
    }
    #expect(steps == Set(0..<300), "missing: \(Set(0..<300).subtracting(steps).sorted())")
  }

  @Test(
    "every step arrives once, in order, across rotations, and the follower ends at the end record",
    arguments: [[], ["--json"], ["--origin", "send", "--changed", "/balances/savings"]])
  func followsRotation(_ options: [String]) throws {
    let trace = try Self.scratch() + "/ledger.ndjson"
    let follower = try Self.startFollower(trace, options)
    // About 15 steps a segment: some twenty rotations, every segment kept.
    let recording = try ChildProcess.run(
      Self.recorder, ["--ledger-rotating", "300", "12000", "100", trace], timeLimit: 120)
    #expect(recording.status == 0, "\(String(decoding: recording.errors, as: UTF8.self))")
    let followed = follower.waitForExit()
    #expect(followed.status == 0 && !followed.timedOut)

    let segments = try FileManager.default.contentsOfDirectory(
      atPath: (trace as NSString).deletingLastPathComponent)
    #expect(segments.count >= 3, "at least two rotations: \(segments)")
    let expected = try Self.logOfSegments(trace, options)
    #expect(String(decoding: followed.output, as: UTF8.self) == expected)
    if options.isEmpty {
      let indices = expected.split(separator: "\n").compactMap {
        Int($0.prefix(6).trimmingCharacters(in: .whitespaces))
      }
      #expect(indices == Array(0..<300))
    }
  }

  @Test("a crash record is shown as log shows it, and the follower ends with it")
  func showsCrash() throws {
    let trace = try Self.scratch() + "/ledger.ndjson"
    let follower = try Self.startFollower(trace)
    let recording = try ChildProcess.run(
      Self.recorder, ["--ledger-rotating", "40", "12000", "100", trace, "--trap"], timeLimit: 120)
    #expect(recording.signal != nil, "the recorder trapped")
    let followed = follower.waitForExit()
    #expect(followed.status == 0 && !followed.timedOut)
    let output = String(decoding: followed.output, as: UTF8.self)
    #expect(output == (try Self.logOfSegments(trace)))
    let last = try #require(output.split(separator: "\n").last)
    #expect(last.contains("40") && last.contains("crashed: SIG"))
  }

  /// The step indices of `log`'s lines.
  static func indices(_ output: String) -> [Int] {
    output.split(separator: "\n").compactMap {
      Int($0.prefix(6).trimmingCharacters(in: .whitespaces))
    }
  }

  @Test("every step arrives once, in order, through .lastSteps rewrites")
  func followsLastStepsRewrites() throws {
    let directory = try Self.scratch()
    let trace = directory + "/ledger.ndjson"
    let follower = try Self.startFollower(trace)
    // A new file every 10 steps, only the previous one kept; released 15 steps at a time, once
    // the follower has printed the last batch, so no segment is deleted before it is read.
    let gate = try FIFO(directory + "/gate")
    let recorder = try BackgroundProcess(
      Self.recorder,
      ["--ledger-rotating", "60", "0", "0", trace, "--last-steps", "10", "--pause-every", "15"],
      input: gate.path)
    for last in [14, 29, 44, 59] {
      #expect(follower.wait(until: { Self.indices($0.output).last == last }))
      gate.send("\n")
    }
    #expect(recorder.waitForExit().status == 0)
    let followed = follower.waitForExit()
    #expect(followed.status == 0 && !followed.timedOut)
    #expect(Self.indices(String(decoding: followed.output, as: UTF8.self)) == Array(0..<60))
    #expect(!String(decoding: followed.errors, as: UTF8.self).contains("rotated away"))
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(!names.contains("ledger.ndjson.2"), "one previous file kept: \(names)")
  }

  @Test("a crash record appears live: the follower prints it as the recorder crashes, then ends")
  func showsCrashLive() throws {
    let directory = try Self.scratch()
    let trace = directory + "/ledger.ndjson"
    let follower = try Self.startFollower(trace)
    let gate = try FIFO(directory + "/gate")
    let recorder = try BackgroundProcess(
      Self.recorder,
      ["--ledger-rotating", "40", "12000", "100", trace, "--trap", "--pause-every", "20"],
      input: gate.path)
    #expect(follower.wait(until: { Self.indices($0.output).last == 19 }))
    gate.send("\n")
    // Every step printed, the recorder alive and paused before the step that traps.
    #expect(follower.wait(until: { Self.indices($0.output).last == 39 }))
    #expect(!follower.output.contains("crashed"))
    gate.send("\n")
    #expect(recorder.waitForExit().signal != nil, "the recorder trapped")
    let followed = follower.waitForExit()
    #expect(followed.status == 0 && !followed.timedOut)
    let output = String(decoding: followed.output, as: UTF8.self)
    #expect(Self.indices(output) == Array(0...40))
    let last = try #require(output.split(separator: "\n").last)
    #expect(last.contains("40") && last.contains("crashed: SIG"))
    #expect(output == (try Self.logOfSegments(trace)))
  }

  @Test("Ctrl-C ends the follower with exit 0, after the lines it has read")
  func endsOnInterrupt() throws {
    let trace = try Self.scratch() + "/counter.ndjson"
    try FileManager.default.copyItem(
      atPath: Runner.packageRoot.appendingPathComponent("Traces/counter.ndjson").path,
      toPath: trace)
    // Without its end record, the trace is one still being recorded.
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    #expect(lines.last?.hasPrefix(#"{"kind":"end""#) == true)
    try (lines.dropLast().joined(separator: "\n") + "\n").write(
      toFile: trace, atomically: false, encoding: .utf8)
    let expected = try Runner.run(["log", trace]).output
    let follower = try BackgroundProcess(Runner.executable.path, ["log", trace, "--follow"])
    #expect(follower.wait(until: { $0.output == expected }))
    kill(follower.pid, SIGINT)
    let followed = follower.waitForExit()
    #expect(followed.status == 0 && followed.signal == nil)
    #expect(String(decoding: followed.output, as: UTF8.self) == expected)
  }

  @Test("a torn last line is waited for, not reported, and read once whole")
  func waitsForTornLine() throws {
    let trace = try Self.scratch() + "/counter.ndjson"
    let source = try Data(
      contentsOf: Runner.packageRoot.appendingPathComponent("Traces/counter.ndjson"))
    // Everything up to the middle of the tenth line, then the rest once the follower has
    // printed the steps before it.
    let newlines = source.indices.filter { source[$0] == 0x0A }
    let cut = newlines[8] + 40
    try source[..<cut].write(to: URL(fileURLWithPath: trace))
    let whole = trace + ".whole-lines"
    try source[...newlines[8]].write(to: URL(fileURLWithPath: whole))
    let before = try Runner.run(["log", whole]).output
    let follower = try BackgroundProcess(Runner.executable.path, ["log", trace, "--follow"])
    #expect(follower.wait(until: { $0.output == before }))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: trace))
    try handle.seekToEnd()
    try handle.write(contentsOf: source[cut...])
    try handle.close()
    let followed = follower.waitForExit()
    #expect(followed.status == 0)
    #expect(String(decoding: followed.errors, as: UTF8.self) == "")
    let after = try Runner.run(["log", trace]).output
    #expect(String(decoding: followed.output, as: UTF8.self) == after)
  }

  @Test("a broken line ends the follower with exit 65, naming it, after the steps before it")
  func refusesBrokenLine() throws {
    let trace = try Self.scratch() + "/broken.ndjson"
    let lines = try String(
      contentsOf: Runner.packageRoot.appendingPathComponent("Traces/counter.ndjson"),
      encoding: .utf8
    ).split(separator: "\n")
    try (lines.prefix(5).joined(separator: "\n") + "\n{\"kind\":\"step\",\"index\":4}\n").write(
      toFile: trace, atomically: false, encoding: .utf8)
    let result = try Runner.run(["log", trace, "--follow"])
    #expect(result.status == 65)
    #expect(result.errors == "Error: \(trace):6: missing \"origin\"\n")
    #expect(result.output.split(separator: "\n").count == 4)
  }
}
