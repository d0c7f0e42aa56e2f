import Foundation
import TestSupport
import Testing

/// A cancelled effect's end is written when its task next runs, which races the steps sent after
/// the step that cancelled it. The generated test must not depend on who won.
@Suite("gen-test and a cancelled effect's end")
struct CancelledEffectEndTests {
  @Test("where a cancelled effect's end lands among later steps does not change the generated test")
  func cancelledEndsLandingLater() throws {
    // A todos session recorded now: each keystroke's save cancels the one before (cancelInFlight).
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("cancelled-ends-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recorder = ToolRunner.executable.deletingLastPathComponent()
      .appendingPathComponent("record-traces").path
    let run = try ChildProcess.run(recorder, [folder.path])
    #expect(run.status == 0, "\(String(decoding: run.errors, as: UTF8.self))")
    let recorded = folder.appendingPathComponent("todos.ndjson").path

    // The same session as a slower machine could record it: each cancelled end one step later.
    var lines = try String(contentsOfFile: recorded, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var moved = 0
    var index = 0
    while index + 1 < lines.count {
      if lines[index].contains(#""event":"cancelled""#),
        lines[index + 1].hasPrefix(#"{"kind":"step""#)
      {
        lines.swapAt(index, index + 1)
        moved += 1
        index += 2
      } else {
        index += 1
      }
    }
    #expect(moved > 10)
    let later = folder.appendingPathComponent("todos-later.ndjson").path
    try lines.joined(separator: "\n").write(toFile: later, atomically: true, encoding: .utf8)

    let first = try ToolRunner.run(["gen-test", recorded, "--steps", "0...120", "--name", "T"])
    let second = try ToolRunner.run(["gen-test", later, "--steps", "0...120", "--name", "T"])
    #expect(first.status == 0, "\(first.errors)")
    #expect(second.status == 0, "\(second.errors)")
    // The files differ only in the trace's name they quote.
    let same = second.output.replacingOccurrences(of: "todos-later.ndjson", with: "todos.ndjson")
    #expect(first.output == same)
    #expect(first.output.contains(".finish()"), "the session awaits no effect: nothing was tested")
  }
}
