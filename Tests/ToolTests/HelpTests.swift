import Foundation
import Testing

@testable import tca_replay

/// The help every command prints, whole, as golden files: the text users read is reviewed as
/// text when the code that lays it out changes.
@Suite("Help text")
struct HelpTests {
  typealias Runner = ToolRunner

  /// Every command the tool has, so a new one needs its golden help.
  static let commands = Tool.commands.map { $0.name }

  @Test("each command's --help prints what its golden file holds", arguments: commands)
  func commandHelp(_ command: String) throws {
    let result = try Runner.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.errors == "")
    try Runner.expectGolden(result.output, "help-\(command).txt")
  }

  @Test("the tool's --help prints what its golden file holds")
  func toolHelp() throws {
    let result = try Runner.run(["--help"])
    #expect(result.status == 0)
    try Runner.expectGolden(result.output, "help.txt")
  }

  /// Every document that quotes the tool's help; CommandLine.md drifted while only the README was
  /// checked.
  static let documentsQuotingHelp = ["README.md", "Documentation/CommandLine.md"]

  @Test("each document quotes the tool's --help as it is", arguments: documentsQuotingHelp)
  func documentQuotesToolHelp(_ document: String) throws {
    let text = try String(
      contentsOf: Runner.packageRoot.appendingPathComponent(document), encoding: .utf8)
    let output = try Runner.run(["--help"]).output
    #expect(
      text.contains("$ swift run tca-replay --help\n" + output + "```"),
      "\(document)'s help block differs from 'tca-replay --help': paste it in")
  }
}
