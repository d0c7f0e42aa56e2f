import Foundation
import Testing

/// A trace whose recorder lost steps 3…5 to a full disk, as its `gap` record declares: the
/// counter's recorded trace with those steps (and their effects' records) replaced by the gap.
@Suite("Traces with lost steps")
struct GapTraceTests {
  static let trace = "Tests/ToolTests/Fixtures/counter-gap.ndjson"

  @Test("summary loads the trace and names the lost steps and why")
  func summary() throws {
    let result = try ToolRunner.run(["summary", Self.trace])
    #expect(result.status == 0)
    let lost =
      "lost         steps 3…5: session.ndjson: cannot write the trace: No space left on device"
    #expect(result.output.contains(lost))
    let json = try ToolRunner.run(["summary", Self.trace, "--json"])
    #expect(json.output.contains(#""lost":[{"from":3,"to":5,"#))
  }

  @Test("log shows the gap where the steps were")
  func log() throws {
    let result = try ToolRunner.run(["log", Self.trace], environment: ["NO_COLOR": "1"])
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n").prefix(5).map(String.init)
    #expect(lines[3].hasPrefix("steps 3…5 lost: "))
    #expect(lines[4].contains("6  "))
  }

  @Test("state goes on after the gap and says a lost step was lost")
  func state() throws {
    let after = try ToolRunner.run(["state", Self.trace, "6", "--json"])
    #expect(after.status == 0)
    #expect(after.output.contains(#""isTimerRunning":true"#))
    let lost = try ToolRunner.run(["state", Self.trace, "4"])
    #expect(lost.status == 65)
    #expect(lost.errors.contains("step 4 was lost"))
  }

  @Test("the stepper crosses the gap in one move, both ways")
  func stepper() throws {
    let result = try ToolRunner.run(
      ["step", Self.trace], input: "goto 2\nnext\nnext\nback\nback\n",
      environment: ["NO_COLOR": "1"])
    #expect(result.status == 0)
    let locations = result.output.split(separator: "\n").dropFirst(2).map(String.init)
    #expect(locations.count == 5)
    #expect(locations[0].hasPrefix("step 2/242"))
    #expect(locations[1].hasPrefix("steps 3…5 lost"))
    #expect(locations[2].hasPrefix("step 6/242"))
    #expect(locations[3].hasPrefix("steps 3…5 lost"))
    #expect(locations[4].hasPrefix("step 2/242"))
  }
}
