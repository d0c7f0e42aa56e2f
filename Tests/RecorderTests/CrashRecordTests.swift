import Architecture
import Foundation
import Testing
import TestSupport

@testable import Recorder
@testable import TraceJSON

@Suite("Crash records")
struct CrashRecordTests {
  static var recordTraces: String { CrashSafetyTests.recordTraces.path }

  /// One child: records `steps` postings to a ledger, then crashes reducing the next one.
  struct Trial: CustomStringConvertible {
    var steps: Int
    var fault = "trap"
    var everyStep = false

    var description: String {
      "\(steps) steps, then \(fault)\(everyStep ? ", every step" : "")"
    }
  }

  /// Step counts from the first action (0) to many writer batches behind, faults of each
  /// kind, both durability modes: 24 trials. Kept small enough for a debug build's writer
  /// (about a millisecond a step) to catch up well within the handler's wait.
  static let trials: [Trial] =
    [0, 1, 2, 7, 31, 64, 65, 200, 400, 900].map { Trial(steps: $0) }
    + [0, 3, 100, 500].map { Trial(steps: $0, fault: "segv") }
    + [0, 10, 300, 600].map { Trial(steps: $0, fault: "abort") }
    + [0, 5, 100, 300].map { Trial(steps: $0, everyStep: true) }

  @Test("a reducer that crashes at step N leaves steps 0…N−1 and a crash record for step N, in every trial")
  func trapAtStepN() throws {
    #expect(Self.trials.count >= 20)
    for trial in Self.trials {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("trapped-\(UUID().uuidString).ndjson").path
      defer { try? FileManager.default.removeItem(atPath: path) }
      var arguments = ["--trap-at", String(trial.steps), path, "--signal", trial.fault]
      if trial.everyStep { arguments.append("--every-step") }
      let ending = try ChildProcess.run(Self.recordTraces, arguments, timeLimit: 60)
      let expectedSignals: [Int32] =
        switch trial.fault {
        case "segv": [SIGSEGV]
        case "abort": [SIGABRT]
        default: [SIGILL, SIGTRAP]  // A Swift trap is SIGILL on x86_64, SIGTRAP on arm64.
        }
      guard let signal = ending.signal, expectedSignals.contains(signal) else {
        Issue.record("\(trial): the child ended with status \(ending.status), not a crash")
        continue
      }
      try checkTrace(at: path, trial: trial, signal: signal)
    }
  }

  private func checkTrace(at path: String, trial: Trial, signal: Int32) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasSuffix("\n"), "\(trial): the trace ends in a torn line")
    var records: [TraceRecord] = []
    for line in text.split(separator: "\n") {
      records.append(try #require(try TraceRecord(json: JSONValue(parsing: String(line)))))
    }
    guard case .header = records.first else {
      Issue.record("\(trial): the trace does not start with its header")
      return
    }
    let indices = records.compactMap { record -> Int? in
      if case .step(let step) = record { step.index } else { nil }
    }
    // Counted, not compared: a failure must not print thousands of indices.
    let firstWrong = zip(indices, 0...).first { $0 != $1 }?.1
    #expect(
      indices.count == trial.steps && firstWrong == nil,
      "\(trial): \(indices.count) steps, the first out of order at \(firstWrong ?? -1)")
    guard case .crash(let crash) = records.last else {
      Issue.record("\(trial): the trace does not end with a crash record")
      return
    }
    let names = [SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT"]
    #expect(crash.step == trial.steps, "\(trial)")
    #expect(crash.finished == false)
    #expect(crash.signal == names[signal])
    #expect(crash.label == ".faulted(\"\(trial.fault)\")")
    #expect(crash.action == ["faulted": ["_0": .string(trial.fault)]])
    // The crash thread names what sent the action: the child sends every one itself.
    #expect(crash.origin == .send, "\(trial)")

    // Every reader takes it: the index, and the checked reader every command but `step` uses.
    let index = try TraceIndex(path: path)
    #expect(index.stepCount == trial.steps)
    #expect(index.crash == crash)
    #expect(index.end == nil)
    let reader = try CheckedTraceReader(path: path)
    while try reader.next() != nil {}
  }

  @Test("with durability .everyStep, each step is written before the reducer returns")
  func everyStepIsWrittenBeforeReturning() throws {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(
      sink: .memory(buffer), options: .init(durability: .everyStep, recordsCrashes: false))
    let reducer = Reduce<[String: Int], String> { state, action in
      state[action, default: 0] += 1
      return .none
    }.recording(to: recorder)
    var state: [String: Int] = [:]
    for index in 0..<200 {
      _ = reducer.reduce(into: &state, action: "key\(index % 7)")
      // No flush: the line must be there already.
      let steps = buffer.lines.filter { $0.hasPrefix(#"{"kind":"step""#) }.count
      #expect(steps == index + 1)
      if steps != index + 1 { break }
    }
    try recorder.close()
  }

  @Test("the action a crash record holds is redacted as the step's would be")
  func crashActionIsRedacted() throws {
    enum Action: Codable, Equatable { case signedIn(user: String, password: String) }
    let encoder = CrashActionEncoder<Action>(redactions: [.key("password")])
    #expect(encoder.encodeKept() == nil, "nothing kept yet")
    encoder.keep(.signedIn(user: "ada", password: "hunter2"), origin: .send)
    encoder.keep(.signedIn(user: "bob", password: "x"), origin: .effect(cause: 4))
    // The crash thread encodes the last action kept, and only then.
    let bytes = try #require(encoder.encodeKept())
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(!text.contains("hunter2") && !text.contains(#""x""#))
    #expect(text.hasPrefix(#""action":{"signedIn":{"#))
    #expect(text.contains(#""user":"bob""#))
    #expect(
      text.hasSuffix(
        #""label":".signedIn(user: \"bob\", password: \"<redacted>\")","origin":"effect","cause":4"#))
  }

  @Test("a crash record reads back as written, with or without a step")
  func crashRecordRoundTrips() throws {
    let crashes = [
      TraceCrash(
        step: 12, time: 0.5, action: ["tapped": [:]], label: ".tapped", signal: "SIGTRAP"),
      TraceCrash(step: 3, time: 1, action: nil, label: "<not encodable>", signal: nil),
      TraceCrash(step: nil, time: 2.25, signal: "SIGSEGV"),
      TraceCrash(
        step: 7, time: 3, action: ["tick": [:]], label: ".tick", signal: "SIGILL",
        origin: .effect(cause: 5)),
      TraceCrash(step: 8, time: 4, action: ["tap": [:]], label: ".tap", signal: nil, origin: .send),
    ]
    for crash in crashes {
      var bytes: [UInt8] = []
      TraceRecord.crash(crash).serialize(into: &bytes)
      let parsed = try TraceRecord(json: JSONValue(parsing: String(decoding: bytes, as: UTF8.self)))
      #expect(parsed == .crash(crash))
    }
    // The handler's own bytes: seconds with nine decimals, the action's members spliced in.
    let line = #"{"kind":"crash","step":4,"time":0.000875371,"action":{"faulted":{"_0":"segv"}},"label":".faulted(\"segv\")","finished":false,"signal":"SIGSEGV"}"#
    guard case .crash(let crash)? = try TraceRecord(json: JSONValue(parsing: line)) else {
      Issue.record("not read as a crash record")
      return
    }
    #expect(crash.step == 4 && crash.signal == "SIGSEGV" && crash.finished == false)
  }
}
