import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

/// A trace whose label, reducer name, metadata, state keys and patch paths carry terminal
/// escape sequences: no command lets one reach the terminal, in text or in JSON.
@Suite("tca-replay escapes a trace's control characters")
struct TerminalEscapeTests {
  typealias Runner = ToolRunner

  /// Sets the window title, clears the screen (with ESC and with the 8-bit CSI), returns the
  /// cursor to the start of the line, rings the bell, and reverses the text after it (a bidi
  /// override, which makes a line read other than it is).
  static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}2J\r\n\u{7F}\u{202E}"

  /// How text output shows it.
  static let shown = #"\u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}2J\u{D}\u{A}\u{7F}\u{202E}"#

  static let directory: URL = {
    let url = Scratch.url("escapes")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  static func json(_ text: String) -> String { JSONValue.string(text).jsonString }

  /// The counter trace's header and steps 0 to 3, with the hostile text in the reducer's name,
  /// the metadata, a state key and its value, step 0's label and a path step 0 adds.
  static let hostileLines: [String] = {
    let text = try! String(
      contentsOf: Runner.packageRoot.appendingPathComponent("Traces/counter.ndjson"),
      encoding: .utf8
    )
    var lines = Array(text.split(separator: "\n").prefix(5).map(String.init))
    func replace(_ line: Int, _ old: String, _ new: String) {
      precondition(lines[line].contains(old), "the fixture changed: no \(old)")
      lines[line] = lines[line].replacingOccurrences(of: old, with: new)
    }
    replace(0, #""reducer":"CounterFeature""#, #""reducer":"# + json("CounterFeature" + hostile))
    replace(
      0, #""metadata":{"session":"counter","source":"record-traces"}"#,
      #""metadata":{"# + json("session" + hostile) + ":" + json("counter" + hostile) + "}")
    replace(
      0, #""initialState":{"count":0,"#,
      #""initialState":{"count":0,"# + json("key" + hostile) + ":" + json(hostile) + ",")
    replace(1, #""label":".incrementButtonTapped""#, #""label":"# + json(".tapped" + hostile))
    replace(
      1, #"{"op":"replace","path":"/count","value":1}]"#,
      #"{"op":"replace","path":"/count","value":1},{"op":"add","path":"#
        + json("/added" + hostile) + #","value":"# + json(hostile) + "}]")
    return lines
  }()

  static func write(_ lines: [String], name: String) -> String {
    let url = directory.appendingPathComponent(name)
    _ = FileManager.default.createFile(
      atPath: url.path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
    return url.path
  }

  static let trace = write(hostileLines, name: "hostile.ndjson")

  /// The same trace with step 2's patch removing a path that does not exist, whose name carries
  /// the hostile text: every command that reads that far reports it.
  static let brokenTrace: String = {
    var lines = hostileLines
    lines[3] = lines[3].replacingOccurrences(
      of: #""patch":["#,
      with: #""patch":[{"op":"remove","path":"# + json("/gone" + hostile) + "},")
    return write(lines, name: "broken.ndjson")
  }()

  /// A stepper session over every command that prints the trace's text.
  static let stepperScript = """
    list
    next
    action
    diff
    print
    watch /count
    continue
    goto 0
    print
    last
    print /nothing
    \(hostile)
    quit

    """

  struct Invocation: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var input: String? = nil
    var isJSON: Bool { arguments.contains("--json") }
    var testDescription: String {
      arguments.map { $0.hasPrefix(TerminalEscapeTests.directory.path) ? "<trace>" : $0 }
        .joined(separator: " ")
    }
  }

  static let invocations: [Invocation] = {
    var all: [Invocation] = []
    for path in [trace, brokenTrace] {
      all += [
        Invocation(arguments: ["log", path]),
        Invocation(arguments: ["log", path, "--changed", "/count"]),
        Invocation(arguments: ["log", path, "--json"]),
        Invocation(arguments: ["show", path, "0"]),
        Invocation(arguments: ["show", path, "0", "--json"]),
        Invocation(arguments: ["summary", path]),
        Invocation(arguments: ["summary", path, "--json"]),
        Invocation(arguments: ["state", path, "last"]),
        Invocation(arguments: ["state", path, "0", "--json"]),
        Invocation(arguments: ["diff", path, "initial", "last"]),
        Invocation(arguments: ["diff", path, "initial", "0", "--json"]),
        Invocation(arguments: ["step", path], input: stepperScript),
        Invocation(arguments: ["gen-test", path]),
      ]
    }
    return all
  }()

  @Test("no ESC, BEL or C1 byte reaches standard output or error", arguments: invocations)
  func noEscapes(_ invocation: Invocation) throws {
    let result = try Runner.run(invocation.arguments, input: invocation.input)
    #expect(!result.crashed)
    for (stream, text) in [("output", result.output), ("errors", result.errors)] {
      let controls = text.unicodeScalars.filter {
        ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
      }
      #expect(
        controls.isEmpty,
        "\(stream) holds \(controls.map { String($0.value, radix: 16) }): \(text)")
    }
    if invocation.isJSON, result.status == 0 {
      // JSON's own escaping: every line still parses, the text intact.
      for line in result.output.split(separator: "\n") {
        #expect(throws: Never.self) { try JSONValue(parsing: String(line)) }
      }
      #expect(result.output.contains(#"\u001b]0;pwned\u0007"#))
    }
  }

  @Test("text output shows the control characters as escapes, on the line they belong to")
  func showsEscapes() throws {
    let log = try Runner.run(["log", Self.trace])
    #expect(log.status == 0)
    let first = try #require(log.output.split(separator: "\n").first)
    #expect(first.hasSuffix(".tapped" + Self.shown))
    let summary = try Runner.run(["summary", Self.trace])
    #expect(summary.output.contains("  reducer      CounterFeature" + Self.shown + "\n"))
    #expect(summary.output.contains("session\(Self.shown)=counter\(Self.shown)"))
    let show = try Runner.run(["show", Self.trace, "0"])
    #expect(show.output.contains("  + /added\(Self.shown): "))
    let broken = try Runner.run(["summary", Self.brokenTrace])
    #expect(broken.status == 65)
    #expect(broken.errors.hasPrefix("Error: \(Self.brokenTrace):4: "))
    #expect(broken.errors.contains("/gone" + Self.shown))
    #expect(broken.errors.filter { $0 == "\n" }.count == 1)
  }

  @Test("summary --json keeps the text whole, as JSON escapes")
  func jsonKeepsText() throws {
    let result = try Runner.run(["summary", Self.trace, "--json"])
    let summary = try JSONValue(parsing: result.output)
    #expect(summary.objectValue?["reducer"] == .string("CounterFeature" + Self.hostile))
    #expect(result.output.contains(#"\u009b2J"#))
  }

  @Test("on a terminal, the tool's own colour codes are the only escape sequences")
  func colourStillWorks() throws {
    for arguments in [["show", Self.trace, "0"], ["log", Self.trace], ["summary", Self.trace]] {
      let output = try underTerminal(arguments)
      #expect(output.contains("pwned"))
      // Every ESC left starts one of Style's codes: `ESC [ digits m`.
      let sequences = output.components(separatedBy: "\u{1B}").dropFirst()
      let isColourCode = { (text: String) in
        text.range(of: #"^\[[0-9]+m"#, options: .regularExpression) != nil
      }
      #expect(sequences.allSatisfy(isColourCode))
      #expect(!output.unicodeScalars.contains("\u{07}"))
      #expect(!output.unicodeScalars.contains("\u{9B}"))
      if arguments[0] == "show" { #expect(output.contains("\u{1B}[1mstep 0\u{1B}[0m")) }
    }
  }

  /// Runs the tool under `script`, so its standard output is a pseudo-terminal.
  func underTerminal(_ arguments: [String]) throws -> String {
    let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
    var variables = ProcessInfo.processInfo.environment
    variables.removeValue(forKey: "NO_COLOR")
    variables["TERM"] = "xterm"
    let child = try ChildProcess.run(
      "/usr/bin/script",
      ["-qec", ([Runner.executable.path] + quoted).joined(separator: " "), "/dev/null"],
      directory: Runner.packageRoot.path, environment: variables
    )
    let data = child.output
    // The terminal turns each line feed into CR LF.
    return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
  }
}
