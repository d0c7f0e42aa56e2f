import Foundation
import Recorder
import TraceJSON
import Testing

/// `shrink`'s result checked without the shrinker: 1-minimality by replaying each one-removed
/// session through the stepper's `skip` and `save` and `bisect`, an effect-only regression, a
/// crash sent by an effect, and the effect records and keyframes a written history keeps. On
/// the elevator, the greenhouse, a debounced typing indicator and issue 35's chat room (no
/// `Codable`), recorded in this run.
@Suite("shrink, checked", .serialized)
struct ShrinkTrustTests {
  static let mutants = Paths.executable("mutant-replay-host")

  /// A recorded session, the host whose reducer fails on it, and how a failure shows.
  struct Case: CustomStringConvertible, Sendable {
    var app: String
    var steps: Int
    var host: String
    /// The host whose reducer recorded the session (a recording that crashed: the same).
    var recordedHost: String
    var crashes: Bool
    var description: String { app }
  }

  static let cases = [
    Case(
      app: "elevator-resume-trap", steps: 2_000, host: mutants + " shrink-apps",
      recordedHost: mutants + " shrink-apps-unchanged", crashes: true),
    Case(
      app: "greenhouse", steps: 2_000, host: mutants + " shrink-apps",
      recordedHost: mutants + " shrink-apps-unchanged", crashes: false),
    Case(
      app: "typing", steps: 200, host: mutants + " typing-no-cancel-in-flight",
      recordedHost: mutants + " typing-unchanged", crashes: false),
    Case(
      app: "typing-stop-trap", steps: 400, host: mutants + " typing-stop-trap",
      recordedHost: mutants + " typing-stop-trap", crashes: true),
    // Issue 35's chat room (442 steps, no `Codable`, a redacted token), typing never expiring.
    Case(
      app: "chat-room", steps: 0, host: mutants + " chat-room-keeping-typists",
      recordedHost: mutants + " chat-room-unchanged", crashes: false),
  ]

  /// The trace's records, parsed.
  static func records(_ path: String) throws -> [JSONValue] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try JSONValue(parsing: Array($0.utf8))
    }
  }

  /// Whether the session in `trace` fails: it ends in a crash, or a cumulative replay through
  /// today's reducer of what the recorded reducer did diverges.
  static func fails(_ trace: String, _ testCase: Case) async throws -> Bool {
    if testCase.crashes { return try records(trace).last?["kind"] == "crash" }
    let bisect = try await Run.tool("bisect", trace, "--host", testCase.host, "--mode", "cumulative")
    #expect(bisect.status == 0 || bisect.status == 1, "\(bisect.errors)")
    return bisect.status == 1
  }

  /// Shrinks the case's session, once per run; the shrunk trace's path and the tool's output.
  static func shrink(_ testCase: Case) async throws -> (String, Run) {
    try await Shrinks.shared.shrink(testCase)
  }

  /// Each session recorded and each case shrunk once in the run: several tests, here and in
  /// `ShrinkTests` and `ChatRoomPrintedFormTests`, check one shrink or read one recording, and a
  /// shrink replays its session hundreds of times through a host.
  actor Shrinks {
    static let shared = Shrinks()
    private var recordings: [String: Task<String, any Error>] = [:]
    private var shrinks: [String: Task<(String, Run), any Error>] = [:]

    /// The session of `app`, `steps` long, recorded in this run; shared, so read only.
    func recording(_ app: String, steps: Int) async throws -> String {
      let key = "\(app) \(steps)"
      if let task = recordings[key] { return try await task.value }
      let task = Task { try await ShrinkTests.record(app, steps: steps) }
      recordings[key] = task
      return try await task.value
    }

    func shrink(_ testCase: Case) async throws -> (String, Run) {
      if let task = shrinks[testCase.app] { return try await task.value }
      let task = Task {
        let trace = try await recording(testCase.app, steps: testCase.steps)
        // A plain name: the generated test's first comment and suite name hold it.
        let folder = Paths.temporary("shrunk")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let shrunk = folder + "/\(testCase.app).shrunk.ndjson"
        let run = try await Run.tool("shrink", trace, "--host", testCase.host, "--output", shrunk)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        return (shrunk, run)
      }
      shrinks[testCase.app] = task
      return try await task.value
    }
  }

  @Test(
    "the shrunk session is 1-minimal: without any one sent action, replayed by the stepper, it no longer fails",
    arguments: cases)
  func oneMinimal(_ testCase: Case) async throws {
    let (shrunk, run) = try await Self.shrink(testCase)
    let sent = try Self.records(shrunk).filter { $0["kind"] == "step" && $0["origin"] == "send" }
      .compactMap { $0["index"]?.int64Value }
    #expect(!sent.isEmpty, "\(run.output)")
    // Or the check proves nothing.
    #expect(try await Self.fails(shrunk, testCase), "the shrunk session does not fail")
    // A crash is saved as today's reducer runs it; a divergence as the recorded one did, for
    // today's to replay.
    let saveHost = testCase.crashes ? testCase.host : testCase.recordedHost
    for step in sent {
      let without = Paths.temporary("\(testCase.app).without-\(step).ndjson")
      let skip = try WhatIfTests.step(shrunk, host: saveHost, ["skip \(step)", "save \(without)"])
      #expect(skip.status == 0, "\(skip.output)\(skip.errors)")
      #expect(
        try await !Self.fails(without, testCase),
        "\(testCase): without step \(step) the session still fails\n\(run.output)")
    }
  }

  @Test("an effect-only regression (cancelInFlight dropped) shrinks, and the shrunk session still diverges in effects")
  func effectOnly() async throws {
    let (shrunk, run) = try await Self.shrink(Self.cases[2])
    #expect(run.output.contains("effects differ from the recording's (cancels)"), "\(run.output)")
    let steps = try Self.records(shrunk).filter { $0["kind"] == "step" }
    // One keystroke starts a debounce that no longer cancels the one in flight.
    #expect(steps.compactMap { $0["label"]?.stringValue }.allSatisfy { $0.hasPrefix(".draftChanged") })
    #expect(steps.count == 1, "\(steps)")
    let verify = try await Run.tool(
      "bisect", shrunk, "--host", Self.cases[2].host, "--mode", "cumulative")
    #expect(verify.status == 1)
    #expect(verify.output.contains("cancels"), "\(verify.output)")
  }

  @Test("a shrunk crash sent by an effect keeps its cause: the crash record names the sending step, and the shrunk session crashes the same way")
  func crashFromEffect() async throws {
    let (shrunk, run) = try await Self.shrink(Self.cases[3])
    #expect(run.output.contains("the reducer crashes: ReplayMutants/TypingIndicator.swift:"))
    let records = try Self.records(shrunk)
    let crash = try #require(records.last)
    #expect(crash["kind"] == "crash" && crash["label"] == ".typingStopped", "\(crash)")
    #expect(crash["origin"] == "effect")
    let cause = try #require(crash["cause"]?.int64Value)
    let sender = records.first { $0["kind"] == "step" && $0["index"]?.int64Value == cause }
    #expect(sender?["label"]?.stringValue?.hasPrefix(".draftChanged") == true, "\(records)")
    let bisect = try await Run.tool(
      "bisect", shrunk, "--host", Self.cases[3].host, "--mode", "cumulative")
    #expect(bisect.status == 1)
    #expect(bisect.output.contains("still crashes the reducer, as when recorded"), "\(bisect.output)")
    // The effects it kept end as they ended when recorded.
    let summary = try await Run.tool("summary", shrunk)
    #expect(!summary.output.contains(" 0 finished, 0 cancelled"), "\(summary.output)")
  }

  /// `summary`'s `effects` and the keyframe count of `steps`, as printed.
  static func effectsAndKeyframes(_ trace: String) async throws -> (String, Int) {
    let summary = try await Run.tool("summary", trace)
    let lines = summary.output.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let effects = lines.first { $0.hasPrefix("effects") } ?? ""
    let steps = lines.first { $0.hasPrefix("steps") } ?? ""
    let keyframes = steps.split(separator: ",").last?.split(separator: " ").first.flatMap { Int($0) }
    return (effects, keyframes ?? -1)
  }

  @Test("a saved history keeps the recording's effect ends and keyframes, and gen-test runs its clock-only effects")
  func savedKeepsEffects() async throws {
    let trace = try await Shrinks.shared.recording("typing", steps: 200)
    let peer = try Self.records(trace).first {
      $0["kind"] == "step" && $0["label"]?.stringValue?.hasPrefix(".peerTyped") == true
    }
    let step = try #require(peer?["index"]?.int64Value)
    let saved = Paths.temporary("typing.saved.ndjson")
    let run = try WhatIfTests.step(
      trace, host: Self.cases[2].recordedHost, ["skip \(step)", "save \(saved)"])
    #expect(run.status == 0, "\(run.errors)")
    let (recordedEffects, recordedKeyframes) = try await Self.effectsAndKeyframes(trace)
    let (savedEffects, savedKeyframes) = try await Self.effectsAndKeyframes(saved)
    // A peer's typing starts no effect: every effect and its end are kept.
    #expect(savedEffects == recordedEffects && recordedEffects.contains(" finished,"))
    #expect(recordedKeyframes > 0)
    #expect(abs(savedKeyframes - recordedKeyframes) <= 1, "\(savedKeyframes) of \(recordedKeyframes)")
    let test = try await Run.tool("gen-test", saved)
    #expect(test.status == 0, "\(test.errors)")
    #expect(!test.output.contains("the recording stopped while"))
    #expect(test.output.contains("clock.advance"), "the debounce runs on the test clock")
  }
}
