import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

/// Bidirectional controls (U+202E and its kin) from a trace never reach generated Swift raw:
/// a reviewer would read other code than the compiler does ("Trojan Source", CVE-2021-42574).
@Suite("gen-test escapes bidirectional controls")
struct BidiControlTests {
  static let controls: [Unicode.Scalar] = [
    "\u{202E}", "\u{202A}", "\u{2066}", "\u{2069}", "\u{200F}", "\u{061C}",
  ]
  static let trojan = "admin\u{202E} \u{2066}// check later\u{2069} \u{2066}"

  struct Placement: CustomTestStringConvertible, Sendable {
    var name: String
    var line: Int
    var old: String
    var new: String
    var testDescription: String { name }
  }

  static let placements: [Placement] = [
    // A string the state holds: a literal in an assertion.
    Placement(
      name: "a string value", line: 2, old: #""value":1}"#,
      new: #""value":1},{"op":"add","path":"/fact","value":"#
        + JSONValue.string(trojan).jsonString + "}"),
    // A case no type names: the action is decoded from its JSON.
    Placement(
      name: "a case name", line: 3, old: #"{"incrementButtonTapped":{}}"#,
      new: "{" + JSONValue.string("tapped" + trojan).jsonString + ":{}}"),
  ]

  @Test("from values and case names", arguments: placements)
  func inTrace(_ placement: Placement) throws {
    let path = try Self.counterTrace(replacing: placement, name: "counter.ndjson")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let source = try TestGenerator().generate(tracePath: path).source
    #expect(source.lowercased().contains("202e"), "the control did not reach the file")
    let raw = source.unicodeScalars.filter { Self.controls.contains($0) || $0.value == 0x202E }
    #expect(raw.isEmpty, "\(raw.count) raw bidirectional controls")
  }

  @Test("from the trace's file name")
  func fileName() throws {
    let path = try Self.counterTrace(
      replacing: nil, name: "bug\u{202E}gnp.\u{2066}counter.ndjson")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let source = try TestGenerator().generate(tracePath: path).source
    #expect(source.lowercased().contains("202e"))
    #expect(!source.unicodeScalars.contains { Self.controls.contains($0) })
  }

  static func counterTrace(replacing placement: Placement?, name: String) throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(
      contentsOf: root.appendingPathComponent("Traces/counter.ndjson"), encoding: .utf8)
    var lines = Array(text.split(separator: "\n").prefix(5).map(String.init))
    if let placement {
      try #require(lines[placement.line - 1].contains(placement.old))
      lines[placement.line - 1] = lines[placement.line - 1]
        .replacingOccurrences(of: placement.old, with: placement.new)
    }
    let directory = Scratch.url("bidi")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }
}
