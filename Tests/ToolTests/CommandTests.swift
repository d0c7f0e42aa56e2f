import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

/// Every command of the built `tca-replay` on the committed traces: standard output (against
/// golden files where it is long), standard error and the exit code.
@Suite("tca-replay commands")
struct CommandTests {
  typealias Runner = ToolRunner

  struct GoldenCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var golden: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let goldenCases: [GoldenCase] = [
    .init(arguments: ["summary", "Traces/counter.ndjson"], golden: "summary-counter.txt"),
    .init(arguments: ["summary", "Traces/todos.ndjson"], golden: "summary-todos.txt"),
    .init(
      arguments: ["summary", "Traces/composed-app.ndjson"], golden: "summary-composed-app.txt"),
    .init(arguments: ["summary", "Traces/todos.ndjson", "--json"], golden: "summary-todos.json"),
    // A version 1 trace, as recorded before starts moved into steps, still reads in full.
    .init(
      arguments: ["summary", "Tests/ToolTests/Fixtures/counter-v1.ndjson"],
      golden: "summary-counter-v1.txt"
    ),
    .init(arguments: ["log", "Traces/counter.ndjson"], golden: "log-counter.txt"),
    .init(
      arguments: ["log", "Traces/composed-app.ndjson", "--json"], golden: "log-composed-app.jsonl"),
    .init(
      arguments: ["log", "Traces/todos.ndjson", "--changed", "/todos/0/isComplete"],
      golden: "log-todos-changed.txt"
    ),
    .init(
      arguments: ["log", "Traces/todos.ndjson", "--origin", "effect", "--action", "*sort*"],
      golden: "log-todos-effect-sort.txt"
    ),
    .init(arguments: ["state", "Traces/todos.ndjson", "120"], golden: "state-todos-120.txt"),
    .init(
      arguments: ["state", "Traces/composed-app.ndjson", "last", "--json"],
      golden: "state-composed-app-last.json"
    ),
    .init(arguments: ["show", "Traces/todos.ndjson", "33"], golden: "show-todos-33.txt"),
    .init(
      arguments: ["show", "Traces/counter.ndjson", "5", "--json"], golden: "show-counter-5.json"),
    .init(
      arguments: ["diff", "Traces/todos.ndjson", "10", "120"], golden: "diff-todos-10-120.txt"),
    .init(
      arguments: ["diff", "Traces/todos.ndjson", "initial", "last", "--json"],
      golden: "diff-todos-initial-last.json"
    ),
  ]

  @Test("prints what the golden file holds, and nothing on standard error", arguments: goldenCases)
  func golden(_ golden: GoldenCase) throws {
    let result = try Runner.run(golden.arguments)
    #expect(result.status == 0)
    #expect(result.errors == "")
    try Runner.expectGolden(result.output, golden.golden)
  }

  @Test("state --path prints one value")
  func statePath() throws {
    let result = try Runner.run(["state", "Traces/counter.ndjson", "3", "--path", "/count"])
    #expect(result.status == 0)
    #expect(result.output == "2\n")
  }

  @Test("the diff --json patch turns the first state into the second")
  func diffPatchApplies() throws {
    let patch = try Runner.run(["diff", "Traces/todos.ndjson", "40", "200", "--json"]).output
    let before = try Runner.run(["state", "Traces/todos.ndjson", "40", "--json"]).output
    let after = try Runner.run(["state", "Traces/todos.ndjson", "200", "--json"]).output
    let rebuilt = try JSONPatch(json: JSONValue(parsing: patch)).apply(
      to: JSONValue(parsing: before))
    #expect(rebuilt == (try JSONValue(parsing: after)))
    #expect(before != after)
  }

  static let commands = ["summary", "log", "state", "show", "diff", "step"]

  @Test("--help explains every command and exits 0", arguments: commands)
  func help(command: String) throws {
    let result = try Runner.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("OVERVIEW: "))
    #expect(result.output.contains("USAGE: tca-replay \(command) <trace>"))
    #expect(result.errors == "")
  }

  @Test("the tool's help lists every command")
  func toolHelp() throws {
    let result = try Runner.run(["--help"])
    #expect(result.status == 0)
    for command in Self.commands { #expect(result.output.contains("  \(command) ")) }
  }

  struct UsageCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let usageCases: [UsageCase] = [
    .init(arguments: [], message: "OVERVIEW"),
    .init(arguments: ["frobnicate"], message: "Error: unknown command 'frobnicate'"),
    .init(arguments: ["log"], message: "Error: missing <trace>"),
    .init(
      arguments: ["log", "Traces/counter.ndjson", "--verbose"],
      message: "Error: unknown option '--verbose'"),
    .init(
      arguments: ["log", "Traces/counter.ndjson", "--origin", "moon"],
      message: "--origin must be 'send' or 'effect'"),
    .init(arguments: ["state", "Traces/counter.ndjson"], message: "Error: missing <step>"),
    .init(
      arguments: ["state", "Traces/counter.ndjson", "9999"],
      message: "there is no step 9999: steps are 0…242"),
    .init(arguments: ["state", "Traces/counter.ndjson", "two"], message: "'two' is not a step"),
    .init(
      arguments: ["state", "Traces/counter.ndjson", "-1"],
      message: "there is no step -1: steps are 0…242"),
    .init(
      arguments: ["state", "Traces/counter.ndjson", "1", "--path", "count"],
      message: "'count' is not a state path"),
    .init(
      arguments: ["state", "Traces/counter.ndjson", "1", "--path", "/nope"],
      message: "no member 'nope' in CounterFeature.State"),
    .init(
      arguments: ["show", "Traces/counter.ndjson", "initial"],
      message: "the initial state has no action"),
    .init(arguments: ["diff", "Traces/counter.ndjson", "1"], message: "Error: missing <to>"),
    .init(
      arguments: ["gen-test", "Traces/counter.ndjson", "--name", "my tests"],
      message: "'my tests' is not a Swift type name"),
    .init(
      arguments: ["gen-test", "Traces/counter.ndjson", "--name", "class"],
      message: "'class' is not a Swift type name"),
  ]

  @Test("bad arguments exit 64 with a one-line error and the usage", arguments: usageCases)
  func usage(_ usage: UsageCase) throws {
    let result = try Runner.run(usage.arguments)
    #expect(result.status == 64)
    #expect(result.output == "")
    #expect(result.errors.contains(usage.message), "\(result.errors)")
  }

  @Test("a missing trace exits 66, naming the file")
  func missing() throws {
    let result = try Runner.run(["summary", "Traces/nope.ndjson"])
    #expect(result.status == 66)
    #expect(result.errors == "Error: Traces/nope.ndjson: No such file or directory\n")
  }

  @Test("a directory is not a trace, in the same words for every command")
  func directory() throws {
    for arguments in [["state", "Traces", "1"], ["summary", "Traces"], ["log", "Traces"]] {
      let result = try Runner.run(arguments)
      #expect(result.status == 66)
      #expect(result.errors == "Error: Traces: is a directory\n", "\(arguments[0])")
    }
  }

  @Test("an endless stream without a newline is refused, not read forever")
  func endlessLine() throws {
    for arguments in [["summary", "/dev/zero"], ["state", "/dev/zero", "0"]] {
      let result = try Runner.run(arguments)
      #expect(result.status == 65, "\(arguments[0])")
      #expect(
        result.errors == "Error: /dev/zero:1: the line is longer than 256 MiB, more than a "
          + "trace line can be\n", "\(arguments[0])")
    }
  }

  @Test("gen-test names why it cannot write its output")
  func genTestOutput() throws {
    let folder = FileManager.default.temporaryDirectory.path
    let intoFolder = try Runner.run(["gen-test", "Traces/counter.ndjson", "--output", folder])
    #expect(intoFolder.status == 73)
    #expect(intoFolder.errors == "Error: cannot write \(folder): it is a directory\n")
    let missing = folder + "/no-such-folder-\(UUID().uuidString)/T.swift"
    let intoMissing = try Runner.run(["gen-test", "Traces/counter.ndjson", "--output", missing])
    #expect(intoMissing.status == 73)
    #expect(
      intoMissing.errors
        == "Error: cannot write \(missing): the folder "
        + "\((missing as NSString).deletingLastPathComponent) does not exist\n")
  }

  @Test("colour only on a terminal, and never with NO_COLOR")
  func colour() throws {
    // `script` runs the tool with a pseudo-terminal as its standard output.
    let command = "\(Runner.executable.path) show Traces/todos.ndjson 33"
    func underTerminal(_ environment: [String: String]) throws -> String {
      var variables = ProcessInfo.processInfo.environment
      variables.removeValue(forKey: "NO_COLOR")
      variables["TERM"] = "xterm"
      for (key, value) in environment { variables[key] = value }
      let child = try ChildProcess.run(
        "/usr/bin/script", ["-qec", command, "/dev/null"], directory: Runner.packageRoot.path,
        environment: variables
      )
      return String(decoding: child.output, as: UTF8.self)
    }
    #expect(try underTerminal([:]).contains("\u{1B}[33m~\u{1B}[0m"))
    let noColor = try underTerminal(["NO_COLOR": "1"])
    #expect(noColor.contains("~ /todos/2/isComplete: false → true"))
    #expect(!noColor.contains("\u{1B}["))
    #expect(!(try Runner.run(["show", "Traces/todos.ndjson", "33"]).output.contains("\u{1B}[")))
  }
}
