import Foundation
@testable import Recorder
import Testing

/// Patches of many operations: the test written for one grows with the patch, not with its
/// square.
@Suite("gen-test on long patches")
struct LongPatchTests {
  @Test("operations no type names are said once, by one assignment of the state they leave")
  func wholeStateOnce() throws {
    let counter = try String(
      contentsOfFile: #filePath.replacingOccurrences(
        of: "Tests/TestGenerationTests/LongPatchTests.swift", with: "Traces/counter.ndjson"),
      encoding: .utf8)
    let header = try #require(counter.split(separator: "\n").first)
      .replacingOccurrences(of: #""initialState":{"#, with: #""initialState":{"untyped":[],"#)
    let operations = (0..<300).map { #"{"op":"add","path":"/untyped/-","value":\#($0)}"# }
    let step =
      #"{"kind":"step","index":0,"time":0.001,"origin":"send","#
      + #""action":{"incrementButtonTapped":{}},"label":".incrementButtonTapped","patch":["#
      + operations.joined(separator: ",") + "]}"
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("long-patch-\(UUID().uuidString).ndjson").path
    try (header + "\n" + step + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }

    let source = try TestGenerator().generate(tracePath: path).source
    // One per operation, each with the whole state, was quadratic in the patch's length.
    #expect(source.components(separatedBy: "$0 = ").count - 1 == 1)
    #expect(source.contains("299"))
  }

  @Test("a raw string's hashes outnumber every run of # after a quote or a backslash")
  func hashes() {
    #expect(SwiftValue.hashes(for: "plain") == "#")
    #expect(SwiftValue.hashes(for: "a\"#b") == "##")
    #expect(SwiftValue.hashes(for: "\\###\" \"####") == "#####")
    #expect(SwiftValue.hashes(for: "####") == "#")
  }
}
