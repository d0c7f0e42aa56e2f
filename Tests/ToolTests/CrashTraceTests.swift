import Foundation
import Recorder
import Testing

/// The commands on a trace whose app crashed: `Fixtures/crashed-ledger.ndjson` was written by
/// a real process (`record-traces --trap-at 6`) whose reducer trapped while reducing step 6.
@Suite("tca-replay on a crashed trace")
struct CrashTraceTests {
  typealias Runner = ToolRunner
  static let trace = "Tests/ToolTests/Fixtures/crashed-ledger.ndjson"

  static let goldenCases: [CommandTests.GoldenCase] = [
    .init(arguments: ["summary", trace], golden: "summary-crashed-ledger.txt"),
    .init(arguments: ["summary", trace, "--json"], golden: "summary-crashed-ledger.json"),
    .init(arguments: ["log", trace], golden: "log-crashed-ledger.txt"),
    .init(arguments: ["log", trace, "--json"], golden: "log-crashed-ledger.jsonl"),
  ]

  @Test("summary and log show the crash and the step that did not finish", arguments: goldenCases)
  func golden(_ golden: CommandTests.GoldenCase) throws {
    let result = try Runner.run(golden.arguments)
    #expect(result.status == 0)
    #expect(result.errors == "")
    try Runner.expectGolden(result.output, golden.golden)
  }

  @Test("summary names the signal and the step; log ends with the crashed step")
  func crashIsNamed() throws {
    let summary = try Runner.run(["summary", Self.trace])
    #expect(summary.output.contains("ended in a crash: SIGILL at step 6"))
    #expect(summary.output.contains("which did not finish"))
    let log = try Runner.run(["log", Self.trace])
    let last = try #require(log.output.split(separator: "\n").last)
    #expect(last.contains("6") && last.contains("crashed: SIGILL"))
    #expect(last.contains(#".faulted("trap")"#) && last.contains("did not finish"))
  }

  @Test("the stepper says the session crashed, and shows the step after the last one")
  func stepperShowsTheCrash() throws {
    let result = try Runner.run(["step", Self.trace], input: "last\nnext\nlist 3\n")
    #expect(result.status == 0)
    try Runner.expectGolden(result.output, "step-crashed-ledger-session.txt")
  }

  @Test("the other readers load a crashed trace", arguments: [
    ["state", trace, "last"], ["show", trace, "5"], ["diff", trace, "initial", "last"],
    ["gen-test", trace],
  ])
  func otherReaders(_ arguments: [String]) throws {
    let result = try Runner.run(arguments)
    #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.errors)")
  }
}
