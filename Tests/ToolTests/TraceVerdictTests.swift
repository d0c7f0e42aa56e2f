import Foundation
import Testing

/// Every command that reads a trace gives the same verdict on it: the same first problem, by
/// file and line, and no crash or runaway work on numbers and sizes a trace or a user chose.
@Suite("One reader, one verdict")
struct TraceVerdictTests {
  typealias Runner = ToolRunner

  static var goodLines: [String] { HostileInputTests.goodLines }

  static func file(_ name: String, _ lines: [String]) -> String {
    HostileInputTests.file("verdict-\(name).ndjson", HostileInputTests.trace(lines))
  }

  /// Counter's first steps, renumbered as a later segment of a rotated trace: from step 10.
  static func rotatedLines(count: Int) -> [String] {
    let header = goodLines[0].replacingOccurrences(
      of: #""initialState""#, with: #""firstStep":10,"initialState""#)
    let steps = goodLines[1...].filter { $0.hasPrefix(#"{"kind":"step""#) }.prefix(count)
    return [header]
      + steps.enumerated().map { offset, line in
        line.replacingOccurrences(
          of: #"{"kind":"step","index":\#(offset),"#, with: #"{"kind":"step","index":\#(offset + 10),"#)
      }.map { line in
        line.replacing(#/"cause":(\d+)/#) { match in "\"cause\":\(Int(match.1)! + 10)" }
      }
  }

  @Test("the stepper moves and lists by 9223372036854775807 steps without trapping")
  func stepperHugeCounts() throws {
    let rotated = Self.file("rotated", Self.rotatedLines(count: 12))
    defer { try? FileManager.default.removeItem(atPath: rotated) }
    for (path, script) in [
      ("Traces/counter.ndjson", "goto 3\nnext 9223372036854775807\nq\n"),
      ("Traces/counter.ndjson", "goto 3\nback 9223372036854775807\nq\n"),
      (rotated, "list 9223372036854775807\nq\n"),
      (rotated, "last\nlist 9223372036854775807\nq\n"),
    ] {
      let result = try Runner.run(["step", path], input: script)
      #expect(!result.crashed, "\(script)")
      #expect(result.status == 0, "\(script): \(result.errors)")
    }
    let next = try Runner.run(
      ["step", "Traces/counter.ndjson"], input: "goto 3\nnext 9223372036854775807\nq\n")
    #expect(next.output.contains("step 242/242"), "\(next.output)")
    let list = try Runner.run(["step", rotated], input: "list 9223372036854775807\nq\n")
    #expect(list.output.contains("=>  (initial state)"))
    #expect(list.output.contains("    21  "), "every step is listed: \(list.output)")
  }

  @Test("bisect --context 9223372036854775807 does not trap the host")
  func hugeContext() throws {
    let host = ToolRunner.executable.deletingLastPathComponent()
      .appendingPathComponent("example-replay-host").path
    let result = try Runner.run([
      "bisect", "Traces/counter.ndjson", "--host", host, "--context", "9223372036854775807",
    ])
    #expect(result.status == 0, "\(result.errors)")
  }

  @Test("gen-test refuses steps out of order with exit 65 and the line, as summary does")
  func genTestOutOfOrder() throws {
    var lines = Array(Self.goodLines.prefix(8))
    lines.swapAt(3, 4)
    let path = Self.file("out-of-order", lines)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let summary = try Runner.run(["summary", path])
    let genTest = try Runner.run(["gen-test", path])
    #expect(!genTest.crashed)
    #expect(genTest.status == 65)
    #expect(summary.status == 65)
    #expect(genTest.errors.hasPrefix("Error: \(path):4: "), "\(genTest.errors)")
    #expect(genTest.errors == summary.errors)
  }

  @Test("gen-test names the line of a patch that does not apply")
  func genTestPatchLine() throws {
    let lines =
      Array(Self.goodLines.prefix(3))
      + [Self.goodLines[3].replacingOccurrences(of: "/count", with: "/missing")]
    let path = Self.file("patch-line", lines)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let genTest = try Runner.run(["gen-test", path])
    #expect(genTest.status == 65)
    #expect(
      genTest.errors.hasPrefix("Error: \(path):4: the patch of step 2 does not apply"),
      "\(genTest.errors)")
  }

  /// A header whose state is one small array, and steps that each copy it into itself.
  static func copyBomb(steps: Int) -> [String] {
    let header = goodLines[0].replacing(
      #/"initialState":.*}$/#, with: #""initialState":{"a":[1,2,3,4,5,6,7,8]}}"#)
    return [header.replacing(#/"keyframeInterval":\d+/#, with: #""keyframeInterval":0"#)]
      + (0..<steps).map { index in
        #"{"kind":"step","index":\#(index),"time":0,"origin":"send","action":{"x":{}},"#
          + #""label":".x","patch":[{"op":"copy","from":"/a","path":"/a/0"}]}"#
      }
  }

  @Test("copy operations that double a value stop at a limit, naming the line")
  func copyBombIsRefused() throws {
    // Each step doubles /a: 100 steps would make 2^100 values.
    let path = Self.file("copy-bomb", Self.copyBomb(steps: 100))
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Bounded: before the limit, `state --json` grew past 13 GB within minutes.
    for arguments in [["state", path, "last", "--json"], ["summary", path], ["log", path]] {
      let result = try BoundedRun(arguments, input: "", seconds: 20)
      #expect(!result.timedOut, "\(arguments[0]) was still running after 20 s")
      #expect(result.status == 65, "\(arguments[0]): \(result.errors.prefix(200))")
      #expect(
        result.errors.hasPrefix(
          "Error: \(path):10: the patch of step 8 does not apply: operation 0 (copy /a/0): "
            + "the patch copies more than 4096 bytes of JSON"),
        "\(arguments[0]): \(result.errors.prefix(300))")
    }
  }

  @Test("a line of 20 million integers is refused at the values-per-line limit, naming it")
  func manyValuesOnALine() throws {
    let path = HostileInputTests.directory.appendingPathComponent("verdict-values.ndjson").path
    let text =
      Self.goodLines[0] + "\n" + #"{"kind":"step","index":0,"label":["#
      + String(repeating: "1,", count: 20_000_000) + "1]}\n"
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let start = ContinuousClock.now
    let result = try Runner.run(["summary", path])
    // Without the limit a debug build took over a minute; with it, a few seconds.
    #expect(ContinuousClock.now - start < .seconds(20))
    #expect(result.status == 65)
    #expect(
      result.errors.hasPrefix("Error: \(path):2: not valid JSON: more than 1048576 values"),
      "\(result.errors)")
  }

  @Test("log refuses a missing or repeated step, as summary, state and step do")
  func logChecksSteps() throws {
    let repeated = Self.file("repeated", Array(Self.goodLines.prefix(5)) + [Self.goodLines[4]])
    let missing = Self.file(
      "missing", Array(Self.goodLines.prefix(4)) + Array(Self.goodLines[5..<8]))
    defer {
      try? FileManager.default.removeItem(atPath: repeated)
      try? FileManager.default.removeItem(atPath: missing)
    }
    for path in [repeated, missing] {
      let summary = try Runner.run(["summary", path])
      let log = try Runner.run(["log", path])
      #expect(summary.status == 65)
      #expect(log.status == 65, "\(log.errors)")
      #expect(log.errors == summary.errors)
    }
  }

  /// The commands that read a trace, each as it would be run on `path`.
  static func commands(_ path: String) -> [[String]] {
    [
      ["summary", path], ["log", path], ["log", path, "--changed", "/count"],
      ["state", path, "last"], ["show", path, "last"], ["diff", path, "initial", "last"],
      ["step", path], ["gen-test", path], ["compare", path, path],
    ]
  }

  @Test("every command names the same first bad line: a torn step before a repeated index")
  func sameFirstLine() throws {
    // Line 7 starts as a step should but is cut short; line 8 repeats step 5. A reader that
    // looks only at first bytes meets line 8's problem first.
    let lines =
      Array(Self.goodLines.prefix(6))
      + [String(Self.goodLines[6].dropLast(20)), Self.goodLines[6]] + Array(Self.goodLines[7..<12])
    let path = Self.file("same-first-line", lines)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let expected = try Runner.run(["summary", path]).errors
    #expect(expected.hasPrefix("Error: \(path):7: not valid JSON"), "\(expected)")
    for arguments in Self.commands(path) {
      let result = try Runner.run(arguments, input: "last\nq\n")
      #expect(result.status == 65, "\(arguments)")
      #expect(result.errors == expected, "\(arguments): \(result.errors)")
    }
  }

  @Test("a keyframe that names another step than the one it follows is refused alike")
  func keyframeIndex() throws {
    let lines = Array(Self.goodLines.prefix(120)).map {
      $0.replacingOccurrences(of: #"{"kind":"keyframe","index":99,"#, with: #"{"kind":"keyframe","index":98,"#)
    }
    let path = Self.file("keyframe-index", lines)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let expected = try Runner.run(["summary", path]).errors
    #expect(expected.hasPrefix("Error: \(path):114: the keyframe names step 98, but follows step 99"))
    for arguments in Self.commands(path) {
      let result = try Runner.run(arguments, input: "last\nq\n")
      #expect(result.status == 65, "\(arguments)")
      #expect(result.errors == expected, "\(arguments): \(result.errors)")
    }
  }

  @Test("a step index beyond 2^53 - 1 is refused where it is read")
  func hugeIndex() throws {
    let header = Self.goodLines[0].replacingOccurrences(
      of: #""initialState""#, with: #""firstStep":9223372036854775807,"initialState""#)
    let path = Self.file("huge-first-step", [header])
    defer { try? FileManager.default.removeItem(atPath: path) }
    for arguments in Self.commands(path) {
      let result = try Runner.run(arguments, input: "list 5\nq\n")
      #expect(!result.crashed, "\(arguments)")
      #expect(result.status == 65, "\(arguments)")
      #expect(
        result.errors.hasPrefix(
          "Error: \(path):1: \"firstStep\" must be an integer from 0 to 9007199254740991"),
        "\(arguments): \(result.errors)")
    }
  }
}
