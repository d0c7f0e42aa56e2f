import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

/// Traces crafted to make `gen-test` write code of their choosing. Each is either refused (exit
/// 65, one line naming the file and line) or gives a file in which every byte of the trace's
/// text sits inside a string literal or a comment, and which Swift parses.
@Suite("gen-test writes only the code it decides")
struct GenTestInjectionTests {
  /// What every hostile trace tries to run.
  static let payload = #"print("INJECTED")"#

  static let directory: URL = {
    let url = Scratch.url("injection")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// The first lines of the counter trace: a header, then steps 0 to 3.
  static let counterLines: [String] = {
    let text = try! String(contentsOf: GeneratedFile.url("Traces/counter.ndjson"), encoding: .utf8)
    return Array(text.split(separator: "\n").prefix(5).map(String.init))
  }()

  /// `text` as a JSON string, quotes included.
  static func json(_ text: String) -> String { JSONValue.string(text).jsonString }

  /// Writes `lines` as a trace named `name` and returns its path.
  static func write(_ lines: [String], name: String = "hostile.ndjson") -> String {
    let url = directory.appendingPathComponent(name)
    _ = FileManager.default.createFile(
      atPath: url.path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
    return url.path
  }

  /// The counter trace with `old` replaced by `new` in line `line` (from 1).
  static func counter(line: Int, replacing old: String, with new: String) -> [String] {
    var lines = counterLines
    #expect(lines[line - 1].contains(old), "the fixture changed: no \(old) in line \(line)")
    lines[line - 1] = lines[line - 1].replacingOccurrences(of: old, with: new)
    return lines
  }

  struct Refused: CustomTestStringConvertible, Sendable {
    var name: String
    var line: Int
    var lines: @Sendable () -> [String]
    var testDescription: String { name }
  }

  static let refused: [Refused] = [
    Refused(name: "the reducer", line: 1) {
      counter(
        line: 1, replacing: #""reducer":"CounterFeature""#,
        with: #""reducer":"# + json("CounterFeature() }\n    \(payload)\n    return Counter"))
    },
    Refused(name: "the state type", line: 1) {
      counter(
        line: 1, replacing: #""stateType":"Counter.CounterFeature.State""#,
        with: #""stateType":"# + json("Counter.CounterFeature.State = { \(payload) }()//"))
    },
    Refused(name: "the action type", line: 1) {
      counter(
        line: 1, replacing: #""actionType":"Counter.CounterFeature.Action""#,
        with: #""actionType":"# + json("Counter.CounterFeature.Action\n\(payload)"))
    },
    Refused(name: "a types key, whose module becomes an import", line: 1) {
      counter(
        line: 1, replacing: #""types":{"#,
        with: #""types":{"# + json("Foundation\n\(payload)\nimport Counter.Evil")
          + #":{"struct":{}},"#)
    },
    Refused(name: "a member's type", line: 1) {
      counter(
        line: 1, replacing: #""count":"Swift.Int""#,
        with: #""count":"# + json("Swift.Int>(); \(payload); _ = Array<Int"))
    },
    Refused(name: "a generic argument", line: 1) {
      counter(
        line: 1, replacing: #""count":"Swift.Int""#,
        with: #""count":"# + json("Swift.Array<Swift.Int>(); \(payload)"))
    },
    Refused(name: "a types key in a step", line: 2) {
      counter(
        line: 2, replacing: #""Counter.CounterFeature.Action":"#,
        with: json("Counter.CounterFeature.Action\n\(payload)//") + ":")
    },
  ]

  @Test(
    "a name that is not a Swift type name is refused, naming the file and line",
    arguments: refused)
  func refusesNames(_ hostile: Refused) throws {
    let path = Self.write(hostile.lines(), name: "refused-\(UUID().uuidString).ndjson")
    let result = try GenTestCommandTests().run([path])
    #expect(result.status == 65)
    #expect(result.output == "")
    #expect(result.errors.hasPrefix("Error: \(path):\(hostile.line): "))
    #expect(result.errors.hasSuffix("\n") && result.errors.dropLast().contains("\n") == false)
    #expect(result.errors.contains("is not a Swift type name"))
  }

  @Test("a reducer or module given on the command line must be a name")
  func refusesOptions() throws {
    let path = Self.write(Self.counterLines, name: "options.ndjson")
    let hostile = [["--reducer", "Feature()\n\(Self.payload)"], ["--module", "Foo;\(Self.payload)"]]
    for arguments in hostile {
      let result = try GenTestCommandTests().run([path] + arguments)
      #expect(result.status == 64)
      #expect(result.output == "")
      #expect(result.errors.hasPrefix("Error: "))
    }
  }

  struct Inert: CustomTestStringConvertible, Sendable {
    var name: String
    var fileName = "inert.ndjson"
    var lines: @Sendable () -> [String]
    var testDescription: String { name }
  }

  static let inert: [Inert] = [
    Inert(
      name: "a file name with quotes, a newline and an interpolation",
      // A file name cannot hold a slash; `*/` is tried through the library below.
      fileName: "evil\"), \(payload) \n\(payload) \\(\"x\") \\ \"#.ndjson"
    ) { counterLines },
    Inert(name: "a skipped step's label with a newline") {
      var lines = counter(
        line: 3, replacing: #""action":{"incrementButtonTapped":{}}"#, with: #""action":null"#)
      lines[2] = lines[2].replacingOccurrences(
        of: #""label":".incrementButtonTapped""#,
        with: #""label":"# + json(".x\n\(payload)\n// \r\(payload)\u{2028}\(payload)"))
      return lines
    },
    Inert(name: "an action's payload label") {
      counter(
        line: 2, replacing: #""action":{"incrementButtonTapped":{}}"#,
        with: #""action":{"incrementButtonTapped":{"#
          + json("x: 1)); \(payload); _ = ((") + ":1}}")
    },
    Inert(name: "strings in the state that try to end their literal") {
      counter(
        line: 1, replacing: #""initialState":{"count":0,"#,
        with: #""initialState":{"count":0,"fact":"#
          + json("\"); \(payload); _ = (\"\\(\(payload))\"#)\n\(payload)\u{1B}") + ",")
    },
    Inert(name: "a value decoded from raw JSON that tries to end the raw string") {
      counter(
        line: 1, replacing: #""initialState":{"count":0,"#,
        with: #""initialState":{"count":0,"extra":{"a":"# + json("\"#); \(payload); _ = (#\"")
          + #","b":"# + json("\\#(\(payload))\"##)") + "},")
    },
  ]

  @Test("text from the trace ends up only in literals and comments", arguments: inert)
  func keepsTextInert(_ hostile: Inert) throws {
    let path = Self.write(hostile.lines(), name: hostile.fileName)
    let result = try GenTestCommandTests().run([path])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("INJECTED"), "the hostile text did not reach the file")
    let code = Self.codeOutsideLiteralsAndComments(result.output)
    // The generator never writes a call to `print`; the type name may spell INJECTED.
    #expect(!code.contains("print("), "trace text outside literals and comments:\n\(code)")
    #expect(try Self.parses(result.output), "swiftc -parse rejects:\n\(result.output)")
  }

  @Test("a trace name with */ and /* stays in its comment and its @Suite string")
  func traceNameInComments() throws {
    let reader = try TraceReader(path: Self.write(Self.counterLines, name: "records.ndjson"))
    var records: [TraceRecord] = []
    while let record = try reader.next() { records.append(record) }
    let name = "a */ \(Self.payload) /* \"\\(\(Self.payload))\n\(Self.payload).ndjson"
    let test = try TestGenerator().generate(records: records, traceName: name)
    let code = Self.codeOutsideLiteralsAndComments(test.source)
    #expect(test.source.contains("INJECTED"))
    #expect(!code.contains("print("))
    #expect(try Self.parses(test.source))
  }

  // MARK: Reading the generated file

  /// The generated source less its comments and string literals (plain, raw, multi-line): what
  /// Swift reads as code. Enough of Swift's lexer for what the generator writes.
  static func codeOutsideLiteralsAndComments(_ source: String) -> String {
    let scalars = Array(source.unicodeScalars)
    var code = String.UnicodeScalarView()
    var index = 0
    func starts(_ text: String, at position: Int) -> Bool {
      let pattern = Array(text.unicodeScalars)
      return position + pattern.count <= scalars.count
        && Array(scalars[position..<position + pattern.count]) == pattern
    }
    while index < scalars.count {
      if starts("//", at: index) {
        while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
        continue
      }
      if starts("/*", at: index) {
        // Nested, as Swift's block comments are.
        var depth = 0
        repeat {
          if starts("/*", at: index) {
            depth += 1
            index += 2
          } else if starts("*/", at: index) {
            depth -= 1
            index += 2
          } else {
            index += 1
          }
        } while depth > 0 && index < scalars.count
        continue
      }
      var hashes = 0
      while index + hashes < scalars.count, scalars[index + hashes] == "#" { hashes += 1 }
      guard scalars.count > index + hashes, scalars[index + hashes] == "\"" else {
        code.append(scalars[index])
        index += 1
        continue
      }
      let pounds = String(repeating: "#", count: hashes)
      let quote = starts("\"\"\"", at: index + hashes) ? "\"\"\"" : "\""
      index += hashes + quote.unicodeScalars.count
      code.append(contentsOf: "\(pounds)\(quote)…\(quote)\(pounds)".unicodeScalars)
      while index < scalars.count, !starts(quote + pounds, at: index) {
        // An escape is a backslash followed by as many # as the literal has.
        index += starts("\\" + pounds, at: index) ? 1 + hashes + 1 : 1
      }
      index += quote.unicodeScalars.count + hashes
    }
    return String(code)
  }

  /// Whether `swiftc -parse` accepts `source`: no unterminated literal or stray token.
  static func parses(_ source: String) throws -> Bool {
    let file = directory.appendingPathComponent("Generated-\(UUID().uuidString).swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    let child = try ChildProcess.run("/usr/bin/env", ["swiftc", "-parse", file.path])
    return child.status == 0
  }
}
