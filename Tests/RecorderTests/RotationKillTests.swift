import Foundation
import Testing
import TestSupport

@testable import Recorder

#if canImport(Glibc)
  import Glibc
#endif

/// Recorders killed with SIGKILL before each change of their files' names, at the start and in
/// a rotation: what a kill at that moment leaves is what a kill at a random moment can leave.
@Suite("Recorders killed at every name change", .serialized)
struct RotationKillTests {
  struct Mode: Sendable, CustomTestStringConvertible {
    var argument: String
    var keep: Int
    /// The step whose rotation is stopped; the steps before it are on disk.
    var step: Int
    var testDescription: String { "\(argument), rotating before step \(step)" }
  }

  @Test(
    "a kill at any point of a rotation leaves every kept segment once, each loading, no step lost",
    arguments: [
      Mode(argument: "keep-1", keep: 1, step: 3),
      Mode(argument: "keep-2", keep: 2, step: 4),
      Mode(argument: "keep-2", keep: 2, step: 1),
      Mode(argument: "keep-3", keep: 3, step: 5),
      Mode(argument: "last-steps", keep: 1, step: 3),
    ])
  func killsInRotation(mode: Mode) throws {
    var kills = 0
    for change in 0..<16 {
      let directory = try Self.makeDirectory()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let path = directory + "/trace.ndjson"
      let child = try ChildProcess.run(
        CrashSafetyTests.recordTraces.path,
        ["--kill-at-name-change", mode.argument, String(mode.step), String(change), path])
      if child.status == 3 { break }
      try #require(child.signal == SIGKILL, "\(mode.argument): \(child.errors)")
      kills += 1
      try Self.checkSegments(path: path, keep: mode.keep, step: mode.step, change: change)

      // The next recorder at the path clears what the killed one left in the directory.
      let next = try TraceRecorder(path: path, options: .init(limit: .rotate(maxBytes: 1, keep: 1)))
      try next.close()
      #expect(try Self.leftovers(in: directory).isEmpty, "after change \(change)")
    }
    #expect(kills >= 2)
  }

  @Test("a kill before the trace is named leaves no file in the directory")
  func killsAtStart() throws {
    var kills = 0
    for change in 0..<8 {
      let directory = try Self.makeDirectory()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let path = directory + "/trace.ndjson"
      // Something at the path already: the new trace must replace it.
      if change % 2 == 1 { try Data("old\n".utf8).write(to: URL(fileURLWithPath: path)) }
      let child = try ChildProcess.run(
        CrashSafetyTests.recordTraces.path,
        ["--kill-at-name-change", "start", "0", String(change / 2), path])
      if child.status == 3 { break }
      try #require(child.signal == SIGKILL, "\(child.errors)")
      kills += 1
      let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      #expect(names.filter { $0 != "trace.ndjson" }.isEmpty, "change \(change / 2): \(names)")
    }
    #expect(kills >= 1)
  }

  /// Checks what a kill in the rotation before `step` left at `path`.
  static func checkSegments(path: String, keep: Int, step: Int, change: Int) throws {
    let context = "killed before name change \(change)"
    // Before the rotation, min(keep, step - 1) older segments existed; after it, one more.
    let before = min(keep, step - 1)
    var names = [path]
    for index in 1...(keep + 1) where FileManager.default.fileExists(atPath: "\(path).\(index)") {
      names.append("\(path).\(index)")
    }
    #expect(names.count - 1 >= before, "\(context): a kept segment is missing: \(names)")
    #expect(names.count - 1 <= keep, "\(context): more segments than kept: \(names)")
    var inodes = Set<UInt64>()
    var steps: [Int] = []
    for name in names {
      var status = stat()
      try #require(stat(name, &status) == 0, "\(context): \(name) is missing")
      #expect(inodes.insert(UInt64(status.st_ino)).inserted, "\(context): \(name) is another name")
      let trace = try TraceIndex(segmentAt: name)
      steps += trace.stepIndices
    }
    #expect(Set(steps).count == steps.count, "\(context): a step is in two segments: \(steps)")
    // Every step handed over is on disk, down to the oldest segment kept.
    #expect(steps.max() == step - 1, "\(context): steps \(steps.sorted())")
    #expect(steps.count >= before, "\(context): steps \(steps.sorted())")
    #expect(Set(steps) == Set((step - steps.count)..<step), "\(context): \(steps.sorted())")
  }

  static func leftovers(in directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }
  }

  static func makeDirectory() throws -> String {
    let directory = Scratch.url("rotation-kill").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
  }
}
