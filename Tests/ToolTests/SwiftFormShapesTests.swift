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
      $0.stackElementID = .incrementing()
    }
    for action in taskBoardSession { store.send(action) }
    try recorder.close()
    return path
  }

  static func run(_ arguments: [String], input: String? = nil) throws -> String {
    try SwiftFormValueTests.run(arguments, input: input)
  }

  /// `show` without its `  at 0.013 s, origin send` line, whose time varies by run.
  static func show(_ trace: String, _ step: Int) throws -> String {
    try run(["show", trace, String(step)]).split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("  at ") }.joined(separator: "\n")
  }

  @Test("state shows enums in @BindingState, an IndexSet, an empty struct, a stack, a date, a UUID")
  func state() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    #expect(
      try Self.run(["state", trace, "last"]) == """
        TaskBoardFeature.State(
          draft: "hi",
          filter: .completed,
          editMode: .active,
          tasks: ["Bread", "Eggs", "Milk"],
          moved: IndexSet([0]),
          settings: TaskBoardFeature.Settings(),
          stampedAt: 2025-11-28T05:20:00Z,
          stampID: UUID(0),
          notice: nil,
          alert: nil,
          dialog: nil,
          path: [#0: .detail(TaskBoardFeature.Detail.State(title: "Bread", isSubmitted: true))]
        )

        """)
    #expect(try Self.run(["state", trace, "initial", "--path", "/path"]) == "[:]\n")
  }

  @Test("state shows alerts, an alert with an empty action enum and a dialog as their initializers")
  func alerts() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    #expect(
      try Self.run(["state", trace, "4", "--path", "/notice"]) == "AlertState(title: \"Saved\")\n")
    #expect(
      try Self.run(["state", trace, "6", "--path", "/alert"]) == """
        AlertState(
          title: "Clear the board?",
          actions: [
            ButtonState(role: .destructive, action: .confirmClear, label: "Clear"),
            ButtonState(role: .cancel, label: "Keep")
          ],
          message: "Every task goes."
        )

        """)
    #expect(
      try Self.run(["state", trace, "8", "--path", "/dialog"]) == """
        ConfirmationDialogState(
          titleVisibility: .visible,
          title: "Options",
          actions: [ButtonState(action: .sortByName, label: "Sort by name")]
        )

        """)
  }

  @Test("show labels binding actions, moves and payload-less cases as Swift, and diffs likewise")
  func show() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    #expect(
      try Self.show(trace, 1) == #"""
        step 1  .binding(.set(\.$filter, .completed))
        action  .binding(.set(\.$filter, .completed))
        diff
          ~ /filter: .all → .completed

        """#)
    #expect(
      try Self.show(trace, 2).contains("action  .binding(.set(\\.$editMode, .active))\n"))
    #expect(
      try Self.show(trace, 3) == """
        step 3  .moveTasks(fromOffsets: IndexSet([0]), toOffset: 2)
        action  .moveTasks(fromOffsets: IndexSet([0]), toOffset: 2)
        diff
          ~ /tasks/0: "Milk" → "Eggs"
          ~ /tasks/1: "Eggs" → "Milk"
          ~ /moved: IndexSet([]) → IndexSet([0])

        """)
    #expect(
      try Self.show(trace, 5) == #"""
        step 5  .notice(.dismiss)
        action  .notice(.dismiss)
        cancels
          \State.$notice
        diff
          ~ /notice: AlertState(title: "Saved") → nil

        """#)
    #expect(
      try Self.show(trace, 10) == """
        step 10  .openButtonTapped
        action  .openButtonTapped
        read    stack element id 0
        diff
          + /path/0: [#0: .detail(TaskBoardFeature.Detail.State(title: "Bread", isSubmitted:…

        """)
    #expect(
      try Self.show(trace, 11).hasPrefix(
        """
        step 11  .path(.element(id: 0, action: .detail(.editor(.submitButtonTapped))))
        action  .path(.element(id: 0, action: .detail(.editor(.submitButtonTapped))))

        """))
    #expect(
      try Self.show(trace, 12) == """
        step 12  .stampButtonTapped
        action  .stampButtonTapped
        read    date 2025-11-28T05:20:00Z, uuid UUID(0)
        diff
          + /stampedAt: 2025-11-28T05:20:00Z
          + /stampID: UUID(0)

        """)
  }

  @Test("the stepper prints alerts, stacks and actions in the same Swift form")
  func stepper() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let output = try Self.run(
      ["step", trace],
      input: "goto 6\nprint /alert\ngoto 11\nprint /path\nprint /settings\ngoto 1\naction\n")
    #expect(
      output.contains(
        #"""
        step 6/12  .clearButtonTapped  (send)
        AlertState(
          title: "Clear the board?",
          actions: [
            ButtonState(role: .destructive, action: .confirmClear, label: "Clear"),
            ButtonState(role: .cancel, label: "Keep")
          ],
          message: "Every task goes."
        )
        step 11/12  .path(.element(id: 0, action: .detail(.editor(.submitButtonTapped))))  (send)
        [#0: .detail(TaskBoardFeature.Detail.State(title: "Bread", isSubmitted: true))]
        TaskBoardFeature.Settings()
        step 1/12  .binding(.set(\.$filter, .completed))  (send)
        step 1  .binding(.set(\.$filter, .completed))
        """#), "\(output)")
    #expect(output.hasSuffix("action  .binding(.set(\\.$filter, .completed))\n"), "\(output)")
  }

  @Test("compare prints a differing date and UUID as state and show do, not as JSON")
  func compare() throws {
    let trace = try Self.record()
    let changed = trace + ".changed.ndjson"
    defer {
      try? FileManager.default.removeItem(atPath: trace)
      try? FileManager.default.removeItem(atPath: changed)
    }
    // The same session, but the last step stamped a second later and with UUID 7.
    let text = try String(contentsOfFile: trace, encoding: .utf8)
      .replacingOccurrences(of: "786000000", with: "786000001")
      .replacingOccurrences(of: "00000000-0000-0000-0000-000000000000", with:
        "00000000-0000-0000-0000-000000000007")
    try text.write(toFile: changed, atomically: true, encoding: .utf8)
    let result = try ToolRunner.run(["compare", trace, changed])
    #expect(result.status == 1, "\(result.errors)")
    #expect(
      result.output.hasSuffix(
        """
          read a  date 2025-11-28T05:20:00Z, uuid UUID(0)
          read b  date 2025-11-28T05:20:01Z, uuid UUID(7)
          state   2 differences (a −, b +)
            /stampedAt
              − 2025-11-28T05:20:00Z
              + 2025-11-28T05:20:01Z
            /stampID
              − UUID(0)
              + UUID(7)

        """), "\(result.output)")
  }
}
