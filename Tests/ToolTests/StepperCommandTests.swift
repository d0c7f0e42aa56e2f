import Foundation
import Testing

/// The stepper's commands are declared once (`StepperCommand`): what its `help` lists is what it
/// understands, long names and short ones alike.
@Suite("tca-replay step: commands declared once")
struct StepperCommandTests {
  /// Each row of the stepper's `help`: the long name, and the short one when it shows one.
  static func listedNames(_ help: String) -> [(long: String, short: String?)] {
    let row = /^  ([a-z-]+)(?: [<\[][^ ]+)*\s+(?:([a-z]{1,2})\s{2,})?[A-Z]/
    return help.split(separator: "\n").compactMap { line in
      (try? row.prefixMatch(in: line)).flatMap { $0 }.map { (String($0.1), $0.2.map(String.init)) }
    }
  }

  @Test("every name the help lists runs a command: none is 'unknown command'")
  func helpListsWhatRuns() throws {
    let help = try ToolRunner.run(["step", "Traces/counter.ndjson"], input: "help\n").output
    let listed = Self.listedNames(help)
    // The 22 commands, 14 of them with a short name, as the help shows them.
    #expect(listed.count == 22, "\(listed)")
    #expect(listed.compactMap(\.short).count == 14, "\(listed)")
    let quitting = ["quit", "q"]
    let names = listed.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) }
      .filter { !quitting.contains($0) }
    let session = try ToolRunner.run(
      ["step", "Traces/counter.ndjson"], input: names.joined(separator: "\n") + "\nquit\n")
    #expect(!session.errors.contains("unknown command"), "\(session.errors)")
    for quit in quitting {
      // A command after it would be unknown, and complained of, were the session still going.
      let left = try ToolRunner.run(["step", "Traces/counter.ndjson"], input: "\(quit)\nnope\n")
      #expect(left.errors == "", "\(quit): \(left.errors)")
    }
    let unknown = try ToolRunner.run(["step", "Traces/counter.ndjson"], input: "nope\n")
    #expect(unknown.errors.contains("unknown command 'nope'"))
  }
}
