import Foundation
import Testing

/// Watches, `log --changed`, `state --path`, `diff --path` and `search` follow an element of an
/// identified list by its id, across the README walkthrough's move (step 38) and insert (41).
@Suite("Paths that follow an element by id")
struct IdentityPathTests {
  typealias Runner = ToolRunner
  /// The todo that is second after the move at step 38: "Buy milk", complete since step 33.
  static let milk = "/todos[id=00000000-0000-0000-0000-000000000000]"

  func changedSteps(_ path: String) throws -> [Int] {
    let log = try Runner.run(["log", "Traces/todos.ndjson", "--changed", path, "--json"])
    #expect(log.status == 0, "\(log.errors)")
    return log.output.split(separator: "\n").compactMap { line in
      guard let start = line.range(of: "\"index\":") else { return nil }
      return Int(line[start.upperBound...].prefix { $0.isNumber })
    }
  }

  @Test("a watch on /todos/1 follows that todo: the move and the insert are not changes")
  func watchFollowsTheTodo() throws {
    let session = try Runner.run(
      ["step", "Traces/todos.ndjson"],
      input: "goto 40\nwatch /todos/1/isComplete\nreverse-continue\ngoto 40\ncontinue\nwatch\n"
    )
    #expect(session.status == 0)
    #expect(session.errors == "")
    let lines = session.output.split(separator: "\n").map(String.init)
    #expect(lines.contains("Watching \(Self.milk)/isComplete: now true."), "\(lines)")
    let landed = lines.filter { $0.hasPrefix("step ") }.map { $0.prefix { $0 != "/" } }
    let changes = try changedSteps("\(Self.milk)/isComplete")
    // goto 40, rc, goto 40, c: the change before 40 is the checkbox tap, not the move.
    #expect(landed[1] == "step \(changes.last { $0 < 40 }!)")
    #expect(landed[1] == "step 33")
    if let next = changes.first(where: { $0 > 40 }) {
      #expect(landed[3] == "step \(next)")
    } else {
      #expect(lines.contains { $0.hasPrefix("No later step changes \(Self.milk)/isComplete") })
    }
    #expect(lines.last == "Watching \(Self.milk)/isComplete.")
  }

  @Test("log --changed by id skips the move and the insert that a position sees")
  func logChangedByID() throws {
    let byID = try changedSteps("\(Self.milk)/isComplete")
    let byPosition = try changedSteps("/todos/1/isComplete")
    #expect(byID.contains(33))
    #expect(!byID.contains(38) && !byID.contains(41))
    #expect(byPosition.contains(38) && byPosition.contains(41))
  }

  @Test("state --path and diff --path take a path by id")
  func stateAndDiffByID() throws {
    let title = try Runner.run([
      "state", "Traces/todos.ndjson", "47", "--path",
      "/todos[id=00000000-0000-0000-0000-000000000003]/title", "--json",
    ])
    #expect(title.status == 0)
    #expect(title.output == "\"Renew \"\n")
    // Moved at 38, pushed down by the insert at 41, otherwise unchanged.
    let diff = try Runner.run(["diff", "Traces/todos.ndjson", "37", "41", "--path", Self.milk])
    #expect(diff.status == 0)
    #expect(diff.output == "step 37 → step 41\n  (no change)\n")
    let positional = try Runner.run([
      "diff", "Traces/todos.ndjson", "37", "41", "--path", "/todos/0",
    ])
    #expect(positional.output.contains("~ /todos/0/title"))
    let missing = try Runner.run([
      "state", "Traces/todos.ndjson", "3", "--path", "/todos[id=nope]",
    ])
    // No such todo now: nil, as any absent value the type can have.
    #expect(missing.status == 0)
    #expect(missing.output == "nil\n")
    let malformed = try Runner.run(["state", "Traces/todos.ndjson", "3", "--path", "/todos[id="])
    #expect(malformed.status == 64)
    #expect(malformed.errors.contains("is not a state path"))
  }

  @Test("search reports where a text appears, changes and disappears, naming todos by id")
  func search() throws {
    let result = try Runner.run(["search", "Traces/todos.ndjson", "renew", "--json"])
    #expect(result.status == 0)
    let events = try result.output.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let first = try #require(events.first)
    #expect(first["event"] as? String == "appears")
    #expect(first["step"] as? Int == 46)
    #expect(first["path"] as? String == "/todos[id=00000000-0000-0000-0000-000000000003]/title")
    #expect(events.dropFirst().first?["event"] as? String == "changes")
    let none = try Runner.run(["search", "Traces/todos.ndjson", "zebra"])
    #expect(none.status == 0)
    #expect(none.output == "")
    #expect(none.errors == "No value in the state matches 'zebra'.\n")
  }
}
