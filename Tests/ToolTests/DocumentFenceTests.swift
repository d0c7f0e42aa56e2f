import Foundation
import Testing

/// The documents' code fences pair up: one stray fence (GeneratingTests.md had one under an
/// orphan fragment) turns every later block inside out, prose shown as code and code as prose.
@Suite("Documentation's code fences")
struct DocumentFenceTests {
  static let documents: [String] = {
    let folder = ToolRunner.packageRoot.appendingPathComponent("Documentation")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted()
      .map { "Documentation/\($0)" }
  }()

  @Test("every fence has its pair, and the document opens with its title", arguments: documents)
  func fencesPair(_ document: String) throws {
    let text = try String(
      contentsOf: ToolRunner.packageRoot.appendingPathComponent(document), encoding: .utf8)
    #expect(Self.unpairedFence(in: text) == nil, "\(document): a code fence without its pair")
    let firstLine = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
    #expect(firstLine.hasPrefix("# "), "\(document) opens with '\(firstLine)', not its title")
  }

  @Test("a lone fence is found, at its line")
  func loneFenceIsFound() {
    #expect(Self.unpairedFence(in: "# T\n```swift\nlet a = 1\n```\n") == nil)
    // The stray fence at line 3 pairs with the opening one at 6, which leaves 8's open.
    #expect(Self.unpairedFence(in: "# T\n}\n```\n\ntext\n```swift\nlet a = 1\n```\n") == 8)
  }

  /// The line of the last fence left open, or nil when every fence closes.
  static func unpairedFence(in text: String) -> Int? {
    var open: Int?
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
      open = open == nil ? index + 1 : nil
    }
    return open
  }
}
