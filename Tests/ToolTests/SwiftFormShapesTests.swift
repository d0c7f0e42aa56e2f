import Architecture
import Foundation
import Recorder
import Testing
import TraceJSON

@testable import Shapes

/// The shapes Point-Free's examples have, recorded in the test run (`Tests/Shapes/
/// TaskBoardFeature.swift`), read in Swift form by `state`, `show` and the stepper: enums inside
/// `@BindingState`, an `IndexSet`, alerts and dialogs, an empty struct, a stack, binding
/// actions and an action without payload deep in a stack.
@MainActor
@Suite("Point-Free's shapes in Swift form, on a fresh task board recording")
struct SwiftFormShapesTests {
  /// Records the task board session into a new file and returns its path.
  static func record() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("board-\(UUID().uuidString).ndjson").path
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 8))
    let store = Store(initialState: TaskBoardFeature.State()) {
      TaskBoardFeature().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 786_000_000))
    }
    for action in taskBoardSession { store.send(action) }
    try recorder.close()
    return path
  }

  static func run(_ arguments: [String], input: String? = nil) throws -> String {
    try SwiftFormValueTests.run(arguments, input: input)
  }

  @Test("dump")
  func dump() throws {
    let trace = try Self.record()
    var all = ""
    for step in ["initial"] + (0..<taskBoardSession.count).map(String.init) {
      all += "=== state \(step)\n" + (try Self.run(["state", trace, step]))
      if step != "initial" { all += "=== show \(step)\n" + (try Self.run(["show", trace, step])) }
    }
    all += "=== log\n" + (try Self.run(["log", trace]))
    all += "=== step\n" + (try Self.run(["step", trace], input: "goto 11\naction\nprint /path\ngoto 12\ndiff\n"))
    try all.write(toFile: "/tmp/board-dump.txt", atomically: true, encoding: .utf8)
    try FileManager.default.copyItem(atPath: trace, toPath: "/tmp/board.ndjson")
  }
}
