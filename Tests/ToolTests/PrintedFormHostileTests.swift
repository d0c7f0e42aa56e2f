import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

@testable import tca_replay

/// What the readers of printed forms make of text that is not a value: garbage, unbalanced
/// brackets, a 64 KiB literal (a megabyte in the slow suite), control characters, deep nesting.
/// Each gets a one-line error naming what could not be read; none crashes or hangs.
@Suite("printed forms: hostile input")
struct PrintedFormHostileTests {
  /// Literals that never end, or end past the point a message may quote, around `long`.
  static func longInputs(_ long: String) -> [String] {
    [".x(" + long, "\"" + long, "\"" + long + "\"", ".selected(" + long + ")"]
  }

  static let inputs: [String] = [
    "garbage ###", "%%%", ".a(((", ".vessel(id: UUID(1), action: .docked(", "[1, 2", "[1: 2, 3]",
    #""unterminated"#, #".selected("a\"#, "UUID(", "UUID(12345678901234567890123)",
    "0000…", "…", "[3 items]", ".announced(…)", "{…}", #".binding(.set(\.$, 1))"#,
".selected(UUID(1)))", ".departed(3F25…)",
    ".vessel(id: 3F25…330, action: .dwellExtended(by: .seconds(1)))",
    ".vessel(id: UUID(1), action: .dwellExtended(by: .seconds(1e300)))",
    ".announced(id: UUID(1), name: 3, cargo: .empty, eta: 2026-11-22T00:26:40Z)",
    "\u{0}\u{1B}[31m.red\u{7}", ".selected(\u{1B}]0;title\u{7})", "\u{202E}.departed(UUID(1))",
    String(repeating: "[", count: 100_000), String(repeating: ".a(", count: 100_000),
    String(repeating: "{", count: 100_000),
  ] + longInputs(String(repeating: "a", count: 1 << 16))

  /// A message fit for one line of stderr.
  static func isOneLine(_ message: String) -> Bool {
    !message.isEmpty && message.count < 400
      && !message.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }

  @Test("an action that cannot be read gets a one-line error", arguments: inputs.indices)
  func actions(index: Int) throws {
    try Self.action(Self.inputs[index])
  }

  static func action(_ input: String) throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let trace = try TraceIndex(path: path)
    do throws(ActionText.ParseError) {
      _ = try trace.readAction(input, near: 5)
      Issue.record("read \(input.prefix(40).debugDescription) as an action")
    } catch {
      #expect(Self.isOneLine(error.message), "\(error.message.prefix(500).debugDescription)")
    }
  }

  @Test("a condition reads its value or says in one line why not", arguments: inputs.indices)
  func conditions(index: Int) {
    Self.condition(Self.inputs[index])
  }

  static func condition(_ input: String) {
    do throws(StatePredicate.ParseError) {
      // Without the trace's types a condition's value may be any value: a megabyte string is.
      _ = try StatePredicate("/note == " + input)
    } catch {
      #expect(Self.isOneLine(error.message), "\(error.message.prefix(500).debugDescription)")
    }
    do throws(StatePredicate.ParseError) {
      _ = try StatePredicate("/vessels[id=" + input + "]/name")
    } catch {
      #expect(Self.isOneLine(error.message), "\(error.message.prefix(500).debugDescription)")
    }
  }

  @Test("state --path and the stepper's edit refuse hostile text in one line, exit 64")
  func commandLine() throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let inputs = [
      "/vessels[id=UUID(1)", "/vessels[id=\u{1B}[31m", "nope",
      "/a[key=" + String(repeating: "{", count: 5_000),
    ]
    for input in inputs {
      let run = try ToolRunner.run(["state", path, "3", "--path", input])
      #expect(run.status == 64, "\(input.prefix(40).debugDescription): \(run.errors)")
      #expect(run.errors.split(separator: "\n").count <= 3, "\(run.errors.prefix(300))")
      #expect(!run.errors.contains("\u{1B}[31m"))
    }
  }
}

/// The long literals at a megabyte, which the readers of printed forms take seconds over.
@Suite("printed forms: hostile input, megabyte literals", .tags(.slow), .slowSuite)
struct PrintedFormHostileSlowTests {
  static let inputs = PrintedFormHostileTests.longInputs(String(repeating: "a", count: 1 << 20))

  @Test("an action that cannot be read gets a one-line error", arguments: inputs.indices)
  func actions(index: Int) throws {
    try PrintedFormHostileTests.action(Self.inputs[index])
  }

  @Test("a condition reads its value or says in one line why not", arguments: inputs.indices)
  func conditions(index: Int) {
    PrintedFormHostileTests.condition(Self.inputs[index])
  }
}
