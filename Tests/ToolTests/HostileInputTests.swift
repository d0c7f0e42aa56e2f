import Architecture
import Foundation
import Recorder
import Testing

/// Broken, truncated and hostile traces given to every reading command of the built binary:
/// each gets a clear error or warning naming the file and line, and nothing crashes.
@Suite("tca-replay on hostile input")
struct HostileInputTests {
  typealias Runner = ToolRunner

  static let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("hostile-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  static func file(_ name: String, _ bytes: [UInt8]) -> String {
    let url = directory.appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
    return url.path
  }

  static let goodLines: [String] = {
    let text = try! String(
      contentsOf: Runner.packageRoot.appendingPathComponent("Traces/counter.ndjson"),
      encoding: .utf8
    )
    return text.split(separator: "\n").map(String.init)
  }()

  static func trace(_ lines: [String], trailingNewline: Bool = true) -> [UInt8] {
    Array((lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")).utf8)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: @Sendable () -> [UInt8]
    /// Exit code of `summary`, which checks every line.
    var status: Int32
    /// What standard error says, after the file's path.
    var message: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "empty file", bytes: { [] }, status: 65, message: ": the trace is empty"),
    Case(
      name: "a lone header", bytes: { trace([goodLines[0]]) }, status: 0, message: ""
    ),
    Case(
      name: "a truncated last line",
      bytes: { trace(Array(goodLines.prefix(10))) + Array(goodLines[10].utf8.prefix(30)) },
      status: 0,
      message: ":11: warning: the last line is incomplete (30 bytes)"
    ),
    Case(
      name: "binary garbage",
      bytes: { (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) } },
      status: 65, message: ":1: not valid JSON"
    ),
    Case(
      name: "an unknown version",
      bytes: {
        trace([
          goodLines[0].replacingOccurrences(
            of: "\"version\":\(traceFormatVersion)", with: #""version":99"#
          )
        ])
      },
      status: 65,
      message: ":1: unsupported trace format version 99; this build reads up to \(traceFormatVersion)"
    ),
    Case(
      name: "version 0",
      bytes: {
        trace([
          goodLines[0].replacingOccurrences(
            of: "\"version\":\(traceFormatVersion)", with: #""version":0"#
          )
        ])
      },
      status: 65,
      message: ":1: invalid trace format version 0: versions start at 1"
    ),
    Case(
      name: "blank lines at the end",
      bytes: { trace(Array(goodLines.prefix(10)) + ["", "  ", ""]) },
      status: 0, message: ""
    ),
    Case(
      name: "a blank line between records",
      bytes: { trace(Array(goodLines.prefix(5)) + [""] + Array(goodLines[5..<10])) },
      status: 65, message: ":6: the line is blank: blank lines may only end a trace"
    ),
    Case(
      name: "a step record first",
      // One that does not parse as a step either: it is named as not a header, not by its lack.
      bytes: { trace([#"{"kind":"step","index":0}"#] + Array(goodLines[2...3])) },
      status: 65, message: ":1: the first line is not a header record"
    ),
    Case(
      name: "duplicate step indices",
      bytes: { trace(Array(goodLines.prefix(4)) + [goodLines[3]]) },
      status: 65, message: ":5: the step index"
    ),
    Case(
      name: "a patch pointing at a missing path",
      bytes: {
        trace(
          Array(goodLines.prefix(3)) + [
            goodLines[3].replacingOccurrences(of: "/count", with: "/missing")
          ])
      },
      status: 65, message: ":4: the patch of step 2 does not apply"
    ),
    Case(
      name: "a 200 MB single line",
      bytes: {
        var bytes = Array(goodLines[0].utf8) + [UInt8(ascii: "\n")]
        bytes += Array(#"{"kind":"step","index":0,"label":""#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 200_000_000)
        return bytes + [UInt8(ascii: "\n")]
      },
      status: 65, message: ":2: not valid JSON"
    ),
  ]

  @Test("summary reports each with a one-line error or warning, or reads it", arguments: cases)
  func summary(_ hostile: Case) throws {
    let path = Self.file("summary-\(hostile.name).ndjson", hostile.bytes())
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try Runner.run(["summary", path])
    #expect(!result.crashed)
    #expect(result.status == hostile.status, "\(result.errors)")
    if hostile.message.isEmpty {
      #expect(result.errors == "")
    } else {
      #expect(result.errors.contains(path + hostile.message), "\(result.errors)")
      #expect(result.errors.split(separator: "\n").count == 1)
    }
  }

  @Test("state, show, log and the stepper never crash on it", arguments: cases)
  func otherCommands(_ hostile: Case) throws {
    let path = Self.file("others-\(hostile.name).ndjson", hostile.bytes())
    defer { try? FileManager.default.removeItem(atPath: path) }
    for arguments in [
      ["state", path, "last"], ["show", path, "0"], ["log", path], ["step", path],
    ] {
      let result = try Runner.run(arguments, input: "last\nprint\nfirst\nc\nq\n")
      #expect(!result.crashed, "\(arguments[0])")
      #expect([0, 64, 65].contains(result.status), "\(arguments[0]): \(result.status)")
      if result.status == 65 {
        #expect(
          result.errors.contains(path + ":"), "\(arguments[0]) names the file: \(result.errors)")
      }
    }
  }

  @Test("gen-test and compare warn about an incomplete last line on standard error")
  func incompleteLastLine() throws {
    let path = Self.file(
      "cut.ndjson", Self.trace(Array(Self.goodLines.prefix(10))) + Array(Self.goodLines[10].utf8.prefix(30)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let warning = "\(path):11: warning: the last line is incomplete (30 bytes)"
    let genTest = try Runner.run(["gen-test", path])
    #expect(genTest.status == 0)
    #expect(genTest.errors.hasPrefix(warning), "\(genTest.errors)")
    let compare = try Runner.run(["compare", path, path])
    #expect(compare.status == 0)
    #expect(compare.errors.split(separator: "\n").count == 1)  // Once, though both are cut.
    #expect(compare.errors.hasPrefix(warning), "\(compare.errors)")
  }

  @Test("a few hundred mutated traces: no crash, and every failure is a named error")
  func mutations() throws {
    var generator = SplitMix64(seed: 0x7CA_5EED)
    let original = Self.trace(Array(Self.goodLines.prefix(60)))
    for round in 0..<300 {
      var bytes = original
      mutate(&bytes, using: &generator)
      let path = Self.file("mutant-\(round).ndjson", bytes)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let command = ["summary", "state", "step"][round % 3]
      let arguments = command == "state" ? [command, path, "last"] : [command, path]
      let result = try Runner.run(arguments, input: "last\nfirst\nq\n")
      #expect(!result.crashed, "round \(round): \(command) crashed")
      #expect([0, 64, 65].contains(result.status), "round \(round): exit \(result.status)")
      if result.status == 65 { #expect(result.errors.contains("Error: \(path)")) }
    }
  }
}

/// Flips, deletes, duplicates or truncates a few bytes.
func mutate(_ bytes: inout [UInt8], using generator: inout SplitMix64) {
  for _ in 0...Int(generator.next() % 3) {
    guard !bytes.isEmpty else { return }
    let position = Int(generator.next() % UInt64(bytes.count))
    switch generator.next() % 5 {
    case 0: bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (generator.next() % 8))
    case 1: bytes.remove(at: position)
    case 2: bytes.insert(bytes[position], at: position)
    case 3: bytes.removeSubrange(position...)
    default:
      let interesting: [UInt8] = Array(#"{}[]",:0-9"\n"#.utf8)
      bytes[position] = interesting[Int(generator.next() % UInt64(interesting.count))]
    }
  }
}
