import Foundation
import Recorder
import Testing
import TraceJSON

@testable import tca_replay

/// What `tca-replay view` embeds in its page: every step, each effect's span, causes, and text
/// that no trace string can break out of.
@Suite("The viewer's embedded data")
struct ViewerDocumentTests {
  static func path(_ name: String) -> String {
    ToolRunner.packageRoot.appendingPathComponent(name).path
  }
  static let hostile = path("Tests/ToolTests/Fixtures/hostile-chat.ndjson")

  @Test(
    "embeds every step with its origin, cause, action and patch",
    arguments: ["counter", "todos", "bookshelf", "composed-app"])
  func steps(_ name: String) throws {
    let tracePath = Self.path("Traces/\(name).ndjson")
    let document = ViewerDocument(try TraceTimeline(path: tracePath))
    let trace = try TraceIndex(path: tracePath)
    let steps = try #require(document.json["steps"]?.arrayValue)
    #expect(steps.count == trace.stepCount)
    #expect(document.json["initialState"] == trace.header.initialState)
    for (position, embedded) in steps.enumerated() {
      let step = try trace.step(at: position)
      #expect(embedded["index"] == .integer(Int64(step.index)))
      #expect(embedded["label"] == .string(step.label))
      #expect(embedded["action"] == (step.action ?? .null))
      #expect(embedded["patch"] == step.patch.json)
      switch step.origin {
      case .send:
        #expect(embedded["origin"] == "send")
        #expect(embedded["cause"] == nil)
      case .effect(let cause):
        #expect(embedded["origin"] == "effect")
        #expect(embedded["cause"] == (cause.map { .integer(Int64($0)) } ?? .null))
      }
    }
  }

  @Test("embeds the trace's types, every step's merged, for the page's Swift-form values")
  func types() throws {
    let tracePath = Self.path("Traces/todos.ndjson")
    let document = ViewerDocument(try TraceTimeline(path: tracePath))
    let schema = try TraceIndex(path: tracePath).typeSchema()
    #expect(document.json["types"] == schema.json)
    #expect(schema.description(of: "Todos.Todo.State") != nil)
  }

  @Test("gives each effect a span from its step to its finished or cancelled record")
  func effects() throws {
    let document = ViewerDocument(try TraceTimeline(path: Self.hostile))
    let effects = try #require(document.json["effects"]?.arrayValue)
    #expect(
      effects == [
        ["id": 0, "step": 0, "start": 0.001, "end": 0.004, "outcome": "finished"],
        ["id": 1, "step": 1, "start": 0.003, "end": 0.005, "outcome": "cancelled"],
        // Never ended: it runs to the end of the trace.
        ["id": 2, "step": 2, "start": 0.006, "end": 0.007, "outcome": "running"],
      ])
    #expect(document.json["endTime"] == 0.007)
  }

  @Test("counts the outcomes of the todos trace's effects as summary does")
  func todosEffects() throws {
    let timeline = try TraceTimeline(path: Self.path("Traces/todos.ndjson"))
    let text = try String(contentsOfFile: Self.path("Traces/todos.ndjson"), encoding: .utf8)
    let cancelled = text.components(separatedBy: #""event":"cancelled""#).count - 1
    let finished = text.components(separatedBy: #""event":"finished""#).count - 1
    #expect(timeline.effects.filter { $0.outcome == .cancelled }.count == cancelled)
    #expect(timeline.effects.filter { $0.outcome == .finished }.count == finished)
    #expect(timeline.effects.allSatisfy { $0.end >= $0.start })
  }

  @Test("reads a version 1 trace's effects from their started records")
  func versionOne() throws {
    let timeline = try TraceTimeline(path: Self.path("Tests/ToolTests/Fixtures/counter-v1.ndjson"))
    #expect(!timeline.effects.isEmpty)
    #expect(timeline.effects.allSatisfy { $0.outcome != .running || $0.end == timeline.endTime })
  }

  @Test("a window of steps starts from the state before its first step")
  func window() throws {
    let tracePath = Self.path("Traces/todos.ndjson")
    let timeline = try TraceTimeline(path: tracePath, window: 40...59)
    let trace = try TraceIndex(path: tracePath)
    #expect(timeline.steps.map(\.index) == Array(40...59))
    #expect(timeline.initialState == (try trace.state(afterStep: 39)))
    #expect(timeline.effects.allSatisfy { (40...59).contains($0.step) })
  }

  @Test("script text holds no <, >, & or line separator, and parses back to the same JSON")
  func scriptSafe() throws {
    let document = ViewerDocument(try TraceTimeline(path: Self.hostile))
    let text = document.scriptText
    for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
      #expect(!text.contains(forbidden), "\(forbidden.debugDescription) in the embedded JSON")
    }
    #expect(try JSONValue(parsing: Array(text.utf8)) == document.json)
    // The hostile strings are there, escaped.
    #expect(text.contains(#"\u003c/script\u003e\u003cscript\u003edocument.body"#))
  }

  @Test("a page of hostile strings has only its own three script elements and no comment")
  func page() throws {
    let document = ViewerDocument(try TraceTimeline(path: Self.hostile))
    let html = ViewerPage.html(document, title: "<img src=x onerror=alert(1)>.ndjson")
    let lowered = html.lowercased()
    #expect(lowered.components(separatedBy: "</script").count - 1 == 3)
    #expect(lowered.components(separatedBy: "<script").count - 1 == 3)
    #expect(!html.contains("<!--"))
    #expect(!html.contains("<img"))
    #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;.ndjson"))
    // Nothing fetched: no URL the browser would load.
    for fetch in ["http:", "https:", "src=\"", "@import", "url("] {
      #expect(!lowered.contains(fetch), "the page refers to \(fetch)")
    }
  }

  @Test("escapes exactly the characters an HTML parser reads in a script")
  func escaping() {
    #expect(
      ViewerDocument.scriptSafe(#"{"a":"</script><!--&\#u{2028}\#u{2029}é€"}"#)
        == #"{"a":"\u003c/script\u003e\u003c!--\u0026\u2028\u2029é€"}"#)
  }

  @Test("the built tool writes a page that embeds the trace, and names a missing trace")
  func command() throws {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("view-\(UUID().uuidString).html").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let result = try ToolRunner.run(["view", "Traces/todos.ndjson", "-o", output])
    #expect(result.status == 0)
    #expect(result.errors.hasPrefix("Wrote \(output) (250 steps, "))
    let page = try String(contentsOfFile: output, encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains(#"<script type="application/json" id="trace-data">{"format":1,"#))

    let missing = try ToolRunner.run(["view", "Traces/nothing.ndjson", "-o", output])
    #expect(missing.status == 66)
    let window = try ToolRunner.run(["view", "Traces/todos.ndjson", "--steps", "9...2"])
    #expect(window.status == 64)
  }

  @Test("refuses a page over the size limit, saying how to view a window")
  func sizeLimit() {
    #expect(ViewCommand.sizeProblem("big.ndjson", bytes: 100, limit: 100) == nil)
    #expect(
      ViewCommand.sizeProblem("big.ndjson", bytes: 300_000_000, limit: 128_000_000)
        == "big.ndjson: the page would embed 300 MB of trace, over the viewer's 128 MB limit; "
        + "view a window of steps with --steps (e.g. --steps 0...9999)")
  }
}
