import Foundation
import Recorder
import TraceJSON
import Testing

/// The stepper's skip, edit, insert and save, through a replay host, on recordings made in
/// this run: the counter, and the elevator, whose arrivals close the doors by an effect.
@Suite("what if")
struct WhatIfTests {
  static let exampleHost = Paths.executable("example-replay-host")
  static let elevatorHost = Paths.executable("mutant-replay-host") + " shrink-apps-unchanged"

  /// Runs the stepper on `trace` with `host` and the commands, one per line.
  static func step(_ trace: String, host: String, _ commands: [String]) throws -> Run {
    let script = Paths.temporary("commands.txt")
    try (commands.joined(separator: "\n") + "\n").write(toFile: script, atomically: true, encoding: .utf8)
    return try Run(
      "/bin/sh", ["-c", "exec \"$0\" step \"$1\" --host \"$2\" < \"$3\"",
        Paths.executable("tca-replay"), trace, host, script])
  }

  static func labels(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap {
      let record = try JSONValue(parsing: Array($0.utf8))
      return record["kind"] == "step" ? record["label"]?.stringValue : nil
    }
  }

  @Test("skip shows where the history parts from the recording, and the values at each later step")
  func skip() throws {
    let trace = Paths.trace("counter.ndjson")
    let run = try Self.step(trace, host: Self.exampleHost, ["skip 0"])
    #expect(run.status == 0, "\(run.errors)")
    // The first step counted up from 0: without it every later count is one less.
    #expect(run.output.contains("It parts from the recording at step 1"), "\(run.output)")
    #expect(run.output.contains("/count  recorded 2, now 1"), "\(run.output)")
  }

  @Test("edit and insert take actions in Swift form and as JSON")
  func editAndInsert() throws {
    let trace = Paths.trace("counter.ndjson")
    let run = try Self.step(trace, host: Self.exampleHost, [
      "edit 0 .decrementButtonTapped", #"insert 0 {"incrementButtonTapped":{}}"#,
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.contains("at the new action .decrementButtonTapped"))
    #expect(run.output.contains("/count  recorded 1, now -1"), "\(run.output)")
    #expect(run.output.contains("at the new action .incrementButtonTapped"))
  }

  @Test("a saved history replays through today's reducer exactly as it was saved")
  func saveRoundTrip() async throws {
    let trace = Paths.trace("counter.ndjson")
    let saved = Paths.temporary("edited.ndjson")
    let run = try Self.step(trace, host: Self.exampleHost, ["edit 2 .resetButtonTapped", "save \(saved)"])
    #expect(run.status == 0, "\(run.errors)")
    #expect(try Self.labels(saved).dropFirst(2).first == ".resetButtonTapped")
    let bisect = try await Run.tool("bisect", saved, "--host", Self.exampleHost, "--mode", "cumulative")
    #expect(bisect.status == 0, "\(bisect.output)\(bisect.errors)")
  }

  @Test("skipping a step drops what its effects sent; the rest keep their recorded order")
  func skipFollowsCausality() async throws {
    // Recorded through the resume trap, it ends in a crash at `.resume`, which the unchanged
    // elevator the host serves runs as a step.
    let trace = Paths.temporary("elevator.ndjson")
    _ = try await Run.run("mutant-replay-host", ["record-long", "elevator-resume-trap", "120", trace])
    let labels = try Self.labels(trace)
    guard let arrival = labels.firstIndex(of: ".arrived"), labels[arrival + 1] == ".doorsClosed" else {
      Issue.record("the session has no arrival that closed the doors: \(labels.prefix(20))")
      return
    }
    let saved = Paths.temporary("skipped.ndjson")
    let run = try Self.step(trace, host: Self.elevatorHost, ["skip \(arrival)", "save \(saved)"])
    #expect(run.status == 0, "\(run.errors)")
    var expected = labels + [".resume"]
    expected.removeSubrange(arrival...(arrival + 1))
    #expect(try Self.labels(saved) == expected)
  }

  @Test("without --host, skip says what it needs; a bad action says what is wrong")
  func errors() throws {
    let trace = Paths.trace("counter.ndjson")
    let noHost = try Run("/bin/sh", ["-c", "echo 'skip 1' | \"$0\" step \"$1\"", Paths.executable("tca-replay"), trace])
    #expect(noHost.status == 64)
    #expect(noHost.errors.contains("skip needs a replay host: start the stepper with --host"))
    let bad = try Self.step(trace, host: Self.exampleHost, ["edit 1 .increment(", "skip 99999"])
    #expect(bad.status == 64)
    #expect(bad.errors.contains("Error: "))
    #expect(bad.errors.contains("step 99999 has no recorded action to change"))
  }

  @Test("save never overwrites the trace being stepped through, nor saves a history that stopped")
  func saveRefusals() throws {
    let trace = Paths.temporary("counter.ndjson")
    try FileManager.default.copyItem(atPath: Paths.trace("counter.ndjson"), toPath: trace)
    let before = try Data(contentsOf: URL(fileURLWithPath: trace))
    let saved = Paths.temporary("stopped.ndjson")
    let run = try Self.step(trace, host: Self.exampleHost, [
      "skip 1", "save \(trace)", "edit 3 .nope", "save \(saved)",
    ])
    #expect(run.status == 64)
    #expect(run.errors.contains("is the trace being stepped through"))
    #expect(run.errors.contains("the new action .nope does not decode"))
    #expect(run.errors.contains("nothing to save"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
    #expect(!FileManager.default.fileExists(atPath: saved))
  }

  @Test("edit takes the label log prints and the action show prints, and runs the recorded action")
  func editReadsPrintedForms() async throws {
    // Todos' ids are UUIDs: log prints them `0000…0002`, show `UUID(2)`.
    let trace = Paths.trace("todos.ndjson")
    let labels = try Self.labels(trace)
    let step = try #require(labels.firstIndex { $0.hasPrefix(".deleteButtonTapped(id: ") })
    let recorded = try #require(try TraceIndex(path: trace).step(at: step).action).jsonString
    let show = try await Run.tool("show", trace, String(step))
    let action = try #require(
      show.output.split(separator: "\n").first { $0.hasPrefix("action  ") }?.dropFirst(8))
    let run = try Self.step(trace, host: Self.exampleHost, [
      "edit \(step) \(recorded)", "edit \(step) \(labels[step])", "edit \(step) \(action)",
    ])
    #expect(run.status == 0, "\(run.errors)")
    // Each report names the new action as typed; past that, the three runs are the same run.
    let reports = run.output.components(separatedBy: "Ran ").dropFirst().map {
      $0.replacingOccurrences(of: labels[step], with: "…")
        .replacingOccurrences(of: String(action), with: "…")
    }
    #expect(reports.count == 3, "\(run.output)")
    #expect(Set(reports).count == 1, "\(labels[step]) / \(action): \(run.output)")
    // The todo is deleted as recorded: only what the dropped effect saved differs.
    #expect(!run.output.contains(" /todos"), "\(run.output)")
  }
}

