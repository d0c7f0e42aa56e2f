import Foundation
import Testing

/// Numbers no clock or calendar reaches, in a trace's times and dependency values: every
/// conversion of a number read from a trace is checked, so no command traps on them.
@Suite("tca-replay on huge numbers")
struct HugeNumberTests {
  typealias Runner = ToolRunner

  struct Case: CustomTestStringConvertible, Sendable {
    var trace: String
    /// The lines to change (1-based) and the member whose number is replaced.
    var fromLine: Int
    var toLine: Int
    var member: String
    var number: String
    var testDescription: String { "\"\(member)\":\(number) in \(trace)" }
  }

  static let cases: [Case] = ["1e19", "-1e19", "1e300", "-1e300", "9.3e18"].flatMap { number in
    [
      // A clock-driven feature: gen-test schedules its effects by these times.
      Case(
        trace: "Tests/TestGenerationTests/Fixtures/brew.ndjson", fromLine: 4, toLine: 99,
        member: "time", number: number),
      Case(
        trace: "Tests/TestGenerationTests/Fixtures/brew.ndjson", fromLine: 4, toLine: 99,
        member: "clock", number: number),
      // A `date` the reducer read, which `show` prints as a calendar date.
      Case(trace: "Traces/todos.ndjson", fromLine: 2, toLine: 2, member: "date", number: number),
    ]
  }

  @Test("no command traps on them", arguments: cases)
  func commands(_ huge: Case) throws {
    let text = try String(
      contentsOf: Runner.packageRoot.appendingPathComponent(huge.trace), encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let pattern = try Regex(#""\#(huge.member)":-?[0-9.e+-]+"#)
    for index in (huge.fromLine - 1)..<min(huge.toLine, lines.count) {
      lines[index] = lines[index].replacing(pattern, with: "\"\(huge.member)\":\(huge.number)")
    }
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("huge-\(UUID().uuidString).ndjson").path
    try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let view = path + ".html"
    defer { try? FileManager.default.removeItem(atPath: view) }
    for arguments in [
      ["gen-test", path], ["show", path, "0"], ["show", path, "1"], ["show", path, "5"],
      ["log", path], ["summary", path], ["export", path, "--format", "chrome-trace"],
      ["view", path, "--output", view], ["step", path],
    ] {
      let result = try Runner.run(arguments, input: "next\nnext\nprint\nlast\nq\n")
      #expect(!result.crashed, "\(arguments[0]): \(result.errors.prefix(300))")
      #expect([0, 65].contains(result.status), "\(arguments[0]): \(result.status)")
    }
  }
}
