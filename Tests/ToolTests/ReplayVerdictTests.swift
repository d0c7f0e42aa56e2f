import Foundation
import Testing

/// `verify` and `bisect` replay a trace in parallel, each thread parsing its own run of lines
/// from a keyframe; they still give a malformed trace `summary`'s verdict: the same first
/// problem, by file and line.
@Suite("verify and bisect give summary's verdict")
struct ReplayVerdictTests {
  typealias Runner = ToolRunner

  /// Counter: 243 steps, keyframes after steps 99 (line 114) and 199 (line 227), where the
  /// parallel replay starts new runs of lines. Step 150 is on line 170.
  static var goodLines: [String] { HostileInputTests.goodLines }

  static let host = ToolRunner.executable.deletingLastPathComponent()
    .appendingPathComponent("example-replay-host").path

  /// Adds `offset` to the index of every step from step 150 on: every patch still applies.
  static func renumbered(by offset: Int) -> [String] {
    goodLines.map { line in
      line.replacing(#/^\{"kind":"step","index":(\d+),/#) { match in
        let index = Int(match.1)!
        return #"{"kind":"step","index":\#(index >= 150 ? index + offset : index),"#
      }
    }
  }

  /// `goodLines` with line `number` (from 1) rewritten.
  static func editing(_ number: Int, _ edit: (String) -> String) -> [String] {
    var lines = goodLines
    lines[number - 1] = edit(lines[number - 1])
    return lines
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var lines: @Sendable () -> [String]
    /// Where `summary` says the first problem is, after the path.
    var error: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a missing step", lines: { renumbered(by: 1) },
      error: ":170: the step index skips steps (step 151 where step 150 was expected)"),
    Case(
      name: "a repeated step", lines: { renumbered(by: -1) },
      error: ":170: the step index repeats or goes back (step 149 after step 149)"),
    Case(
      name: "a patch that does not apply",
      lines: { editing(170) { $0.replacingOccurrences(of: #""value":5}"#, with: #""value":6}"#) } },
      error: ":170: the patch of step 150 does not apply: operation 0 (test /count): "
        + "test failed: expected 6, found 5"),
    Case(
      name: "a keyframe whose state differs from the patches'",
      lines: {
        editing(227) {
          $0.replacingOccurrences(
            of: #""isTimerRunning":false}"#, with: #""isTimerRunning":false,"note":"x"}"#)
        }
      },
      error: ":227: the keyframe after step 199 differs from the state the patches rebuild"),
    Case(
      name: "a keyframe naming the wrong step",
      lines: {
        editing(227) {
          $0.replacingOccurrences(of: #""index":199,"#, with: #""index":198,"#)
        }
      },
      error: ":227: the keyframe names step 198, but follows step 199"),
    Case(
      name: "a keyframe inside a run of lines, differing from the patches'",
      lines: {
        // After step 30 (line 37): not where a run starts, so no thread starts from it.
        var lines = goodLines
        lines.insert(
          #"{"kind":"keyframe","index":30,"state":{"count":99,"isLoading":false,"#
            + #""isTimerRunning":false}}"#, at: 37)
        return lines
      },
      error: ":38: the keyframe after step 30 differs from the state the patches rebuild"),
    Case(
      name: "a truncated line in the middle",
      lines: { editing(170) { String($0.prefix(60)) } },
      error: ":170: not valid JSON: unterminated string at byte 56"),
  ]

  @Test("bisect exits 65 and verify 125 (cannot test), naming summary's first error", arguments: cases)
  func sameVerdict(_ malformed: Case) throws {
    let name = malformed.name.replacingOccurrences(of: " ", with: "-")
    let path = HostileInputTests.file(
      "replay-verdict-\(name).ndjson", HostileInputTests.trace(malformed.lines()))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let summary = try Runner.run(["summary", path])
    #expect(summary.status == 65)
    #expect(summary.errors == "Error: \(path)\(malformed.error)\n", "\(summary.errors)")

    let bisect = try Runner.run(["bisect", path, "--host", Self.host])
    #expect(bisect.status == 65, "\(bisect.output)")
    #expect(bisect.errors == summary.errors)

    // verify's code for a trace it cannot test, so `git bisect run` skips rather than blames.
    let verify = try Runner.run(["verify", path, "--host", Self.host])
    #expect(verify.status == 125)
    #expect(
      verify.output.split(separator: "\n").first.map(String.init)
        == "cannot test  \(path)\(malformed.error)",
      "\(verify.output)")
  }
}
