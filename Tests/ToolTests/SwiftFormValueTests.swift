import Architecture
import Foundation
import Recorder
import Testing
import TraceJSON

@testable import Shapes

/// Values shown as a Swift developer writes them, on a shop recorded in the test run with
/// today's recorder (`Tests/Shapes/ShopFeature.swift`): a `Duration`, a `Date`, UUIDs, a
/// dictionary keyed by a non-`String` `ProductID`, sets and nested enums. No output shows a
/// `Duration`'s `[seconds, attoseconds]` pair or a position in a dictionary's flat array.
@MainActor
@Suite("Values in Swift form, on a fresh shop recording")
struct SwiftFormValueTests {
  /// Records the shop session into a new file and returns its path.
  static func recordShop() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("shop-\(UUID().uuidString).ndjson").path
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 8))
    let store = Store(initialState: ShopFeature.State()) {
      ShopFeature().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 786_000_000.25))
    }
    for action in shopSession { store.send(action) }
    try recorder.close()
    return path
  }

  /// Runs `tca-replay` on the trace; expects success and nothing on standard error.
  static func run(_ arguments: [String], input: String? = nil) throws -> String {
    let result = try ToolRunner.run(arguments, input: input)
    #expect(result.status == 0, "\(arguments): \(result.errors)")
    #expect(result.errors == "", "\(arguments)")
    return result.output
  }

  @Test("state shows a Duration, a Date, UUIDs, a ProductID-keyed dictionary, sets and enums")
  func state() throws {
    let trace = try Self.recordShop()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let output = try Self.run(["state", trace, "last"])
    #expect(
      output == """
        ShopFeature.State(
          cart: ShopFeature.Cart(quantities: [:], notes: [13: "gift wrap"]),
          elapsed: .seconds(6.93),
          openedAt: 2025-11-28T05:20:00.250Z,
          coupon: nil,
          favourites: Set([13]),
          orders: [
            ShopFeature.Order(id: UUID(0), items: [13: 2], status: .shipped(carrier: .courier)),
            ShopFeature.Order(id: UUID(1), items: [21: 1], status: .cancelled(reason: "changed mind"))
          ],
          phase: .browsing
        )

        """)
    #expect(try Self.run(["state", trace, "2", "--path", "/cart/quantities[key=13]"]) == "2\n")
    #expect(try Self.run(["state", trace, "2", "--path", "/elapsed"]) == ".zero\n")
    // --json stays JSON.
    #expect(
      try Self.run(["state", trace, "7", "--path", "/elapsed", "--json"])
        == "[0,6930000000000000000]\n")
  }

  @Test("diff and show name dictionary entries by key, and show enums and durations whole")
  func changes() throws {
    let trace = try Self.recordShop()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    #expect(
      try Self.run(["diff", trace, "1", "2"])
        == "step 1 → step 2\n  ~ /cart/quantities[key=13]: 1 → 2\n")
    #expect(
      try Self.run(["diff", trace, "4", "5"])
        == "step 4 → step 5\n  ~ /elapsed: .zero → .seconds(2.31)\n")
    let placed = try Self.run(["show", trace, "13"])
    #expect(
      placed.hasSuffix(
        """
        diff
          - /cart/quantities[key=13]: 2
          + /orders/0: ShopFeature.Order(id: UUID(0), items: [13: 2], status: .placed)
          ~ /phase: .checkingOut(.card(last4: "4242")) → .browsing

        """), "\(placed)")
    #expect(placed.contains("action  .orderPlaced\n"))
  }

  @Test("no output shows a Duration's two integers or a position in a keyed dictionary")
  func noRawPairsOrPositions() throws {
    let trace = try Self.recordShop()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    var outputs = [
      try Self.run(["state", trace, "last"]), try Self.run(["diff", trace, "initial", "last"]),
      try Self.run(["search", trace, "1"]),
    ]
    for step in 0..<shopSession.count {
      outputs.append(try Self.run(["show", trace, String(step)]))
      outputs.append(try Self.run(["state", trace, String(step)]))
    }
    let positional = /\/(quantities|items|notes)\/\d/
    let pair = /\[\d+, ?\d{6,}\]/
    for output in outputs {
      #expect(output.firstMatch(of: positional) == nil, "\(output)")
      #expect(output.firstMatch(of: pair) == nil, "\(output)")
    }
  }

  @Test("log --changed and search follow a dictionary value by its key")
  func followByKey() throws {
    let trace = try Self.recordShop()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let steps = try Self.run(["log", trace, "--changed", "/cart/quantities[key=13]"])
      .split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
    #expect(steps == [1, 2, 13])
    #expect(
      try Self.run(["search", trace, "gift"])
        == "step 4    appears     /cart/notes[key=13]  \"gift wrap\"\n")
  }

  @Test("the stepper watches a dictionary entry by key, and prints values in Swift form")
  func stepper() throws {
    let trace = try Self.recordShop()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let output = try Self.run(
      ["step", trace],
      input: "goto 5\nwatch /cart/quantities/1\nc\nwatch /elapsed\nrc\nprint /cart\n")
    #expect(
      output.hasSuffix(
        """
        step 5/19  .ticked  (send)
        Watching /cart/quantities[key=13]: now 2.
        Watch /cart/quantities[key=13]: 2 → nil
        step 13/19  .orderPlaced  (send)
        Watching /elapsed: now .seconds(6.93).
        Watch /elapsed: .seconds(4.62) → .seconds(6.93)
        step 7/19  .ticked  (send)
        ShopFeature.Cart(quantities: [13: 2, 7: 1], notes: [13: "gift wrap"])

        """), "\(output)")
  }

  @Test("compare reports a difference inside a keyed dictionary at the dictionary, not a position")
  func compareCollapses() throws {
    let trace = try Self.recordShop()
    let changed = trace + ".changed.ndjson"
    defer {
      try? FileManager.default.removeItem(atPath: trace)
      try? FileManager.default.removeItem(atPath: changed)
    }
    // The same session, but step 2 left 3 of product 13 in the cart rather than 2.
    var lines: [String] = []
    for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
      var record = try JSONValue(parsing: String(line))
      if record["kind"] == "step", record["index"] == .integer(2),
        case .object(var object) = record, case .array(var patch)? = object["patch"]
      {
        for (position, operation) in patch.enumerated() where operation["op"] == "replace" {
          if case .object(var replace) = operation {
            replace["value"] = .integer(3)
            patch[position] = .object(replace)
          }
        }
        object["patch"] = .array(patch)
        record = .object(object)
      }
      lines.append(record.jsonString)
    }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: changed, atomically: true, encoding: .utf8)
    let result = try ToolRunner.run(["compare", trace, changed])
    #expect(result.status == 1, "\(result.errors)")
    #expect(result.output.contains("    /cart/quantities\n      − [13: 2]\n      + [13: 3]\n"))
    #expect(result.output.firstMatch(of: /\/quantities\/\d/) == nil, "\(result.output)")
  }

  @Test("names the types give (cases, members) reach the terminal escaped, as values do")
  func hostileNames() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("hostile-names-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // An enum whose case, and a struct whose member, is named with an escape sequence.
    let header = #"""
      {"kind":"header","version":4,"tool":"tca-replay 0.1.0","reducer":"F","stateType":"M.S",\#
      "actionType":"M.A","fingerprint":{"state":"0","action":"0"},"started":"2026-11-27T10:58:44Z",\#
      "keyframeInterval":100,\#
      "types":{"M.S":{"struct":{"\u001b[31mred":"M.E"}},"M.E":{"enum":{"\u001b]0;x\u0007":{}}}},\#
      "initialState":{"\u001b[31mred":{"\u001b]0;x\u0007":{}}}}
      """#
    try (header + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let result = try ToolRunner.run(["state", path, "initial"])
    #expect(result.status == 0, "\(result.errors)")
    #expect(!result.output.utf8.contains(0x1B), "\(result.output)")
    #expect(!result.output.utf8.contains(0x07), "\(result.output)")
    #expect(result.output.contains("S("), "\(result.output)")
  }
}
