import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

/// The protocol's messages as shared types (`HostMessage`): written with the bytes versions 1
/// to 3 wrote by hand, read leniently where the protocol asks, and understood by hosts and
/// tools built before the types existed.
@Suite("Host protocol messages")
struct HostMessageTests {
  static func line(_ message: some Encodable) -> String {
    HostMessage.json(message).jsonString
  }

  @Test("each message a tool writes has the bytes the hand-written requests had")
  func requestBytes() throws {
    #expect(
      Self.line(
        HostMessage.Replay(
          id: 1, trace: "Traces/counter.ndjson", mode: "isolated", maximumDivergences: 1,
          precedingSteps: 0, workers: nil))
        == #"{"kind":"replay","id":1,"trace":"Traces/counter.ndjson","mode":"isolated","#
        + #""maximumDivergences":1,"precedingSteps":0}"#)
    #expect(
      Self.line(
        HostMessage.Replay(
          id: 2, trace: "t.ndjson", mode: "cumulative", maximumDivergences: 1_000_000,
          precedingSteps: 5, workers: 1))
        == #"{"kind":"replay","id":2,"trace":"t.ndjson","mode":"cumulative","#
        + #""maximumDivergences":1000000,"precedingSteps":5,"workers":1}"#)
    #expect(
      Self.line(HostMessage.BlameRequest(id: 3, trace: "t.ndjson", step: 7))
        == #"{"kind":"blame","id":3,"trace":"t.ndjson","step":7}"#)
    #expect(Self.line(HostMessage.Bye()) == #"{"kind":"bye"}"#)
    // A history in its own form, with kind and id last, as versions 2 and 3 wrote it.
    let history = History(
      trace: "t.ndjson", entries: [.recorded(0), .recorded(2)], comparison: .recordedChange,
      stopsAtFirstDifference: true, comparedSteps: [2])
    let run = Self.line(HostMessage.Run(id: 5, history: history))
    #expect(
      run == #"{"trace":"t.ndjson","history":[{"step":0},{"step":2}],"compare":"recordedChange","#
        + #""stopAtFirstDifference":true,"compareOnly":2,"kind":"run","id":5}"#)
    #expect(try History(json: JSONValue(parsing: Array(run.utf8))) == history)
  }

  @Test("each message a host writes has the bytes the hand-written answers had")
  func answerBytes() throws {
    let hello = HostMessage.Hello(
      protocol: 3, tool: "tca-replay 0.1.0",
      reducers: [.init(reducer: "Counter", stateType: "C.State", actionType: "C.Action")])
    #expect(
      Self.line(hello)
        == #"{"kind":"hello","protocol":3,"tool":"tca-replay 0.1.0","reducers":[{"reducer":"#
        + #""Counter","stateType":"C.State","actionType":"C.Action"}]}"#)
    #expect(
      Self.line(HostMessage.Progress(id: 4, steps: 120))
        == #"{"kind":"progress","id":4,"steps":120}"#)
    #expect(
      Self.line(HostMessage.Failure(id: .null, problem: "badRequest", message: "not JSON"))
        == #"{"kind":"error","id":null,"problem":"badRequest","message":"not JSON"}"#)
    #expect(
      Self.line(HostMessage.Blame(id: "x", blame: ["step": 1]))
        == #"{"kind":"blame","id":"x","blame":{"step":1}}"#)
  }

  @Test("the hello and the report a tca-replay 0.1.0 host sent read as today's types")
  func olderHostLines() throws {
    let hello = try JSONValue(parsing: Array(HostConversation.matches.hello.utf8))
    let greeting = try #require(HostMessage.read(HostMessage.Hello.self, from: hello))
    #expect(greeting.protocol == 1)
    #expect(greeting.reducers.map(\.reducer).first == "CounterFeature")
    // Read and written again, byte for byte.
    #expect(Self.line(greeting) == HostConversation.matches.hello)
    let answer = try JSONValue(parsing: Array(HostConversation.verifyDiverges.answer.utf8))
    let report = try #require(HostMessage.read(HostMessage.Report.self, from: answer))
    #expect(report.id == 1)
    #expect(report.report.divergentSteps == 3)
    #expect(report.report.divergences.first?.step == 77)
  }

  @Test("hostile members read as the protocol's defaults, not as a failure")
  func lenientReading() throws {
    func read<Message: Decodable>(_ type: Message.Type, _ line: String) throws -> Message? {
      HostMessage.read(type, from: try JSONValue(parsing: Array(line.utf8)))
    }
    let head = try #require(try read(HostMessage.Head.self, #"{"kind":5,"id":[1]}"#))
    #expect(head.kind == nil)
    #expect(head.id == [1])
    let failure = try #require(try read(HostMessage.Failure.self, #"{"kind":"error","id":1}"#))
    #expect(failure.problem == "unknown")
    #expect(failure.message == "(no message)")
    let crash = try #require(
      try read(HostMessage.Crash.self, #"{"kind":"crash","id":1,"step":"x","signal":99999999999}"#))
    #expect(crash.step == nil)
    #expect(crash.signal == 0)
    #expect(try read(HostMessage.Hello.self, #"{"kind":"hello","protocol":"1"}"#) == nil)
  }

  @Test("today's host answers the bytes a version-1 tool wrote, on a trace recorded now")
  func olderToolRequest() throws {
    let trace = Paths.trace("counter.ndjson")
    let request =
      #"{"kind":"replay","id":1,"trace":"\#(trace)","mode":"isolated","maximumDivergences":1,"#
      + #""precedingSteps":0}"# + "\n" + #"{"kind":"bye"}"# + "\n"
    let run = try ChildProcess.run(
      Paths.executable("example-replay-host"), [], input: Data(request.utf8), timeLimit: 300)
    #expect(run.status == 0)
    let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n")
      .map { try? JSONValue(parsing: Array($0.utf8)) }
    let hello = try #require(lines.first.flatMap { $0 })
    #expect(HostMessage.read(HostMessage.Hello.self, from: hello)?.protocol == 3)
    let answer = try #require(lines.last.flatMap { $0 })
    let report = try #require(HostMessage.read(HostMessage.Report.self, from: answer))
    #expect(report.id == 1)
    #expect(report.report.matches)
    #expect(report.report.steps > 0)
  }
}
