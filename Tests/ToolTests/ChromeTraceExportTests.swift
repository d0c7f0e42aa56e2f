import Foundation
import Recorder
import Testing
import TraceJSON

@testable import tca_replay

/// `tca-replay export --format chrome-trace` against the Trace Event Format's rules, as
/// Perfetto's importer and chrome://tracing read them.
@Suite("Chrome trace export")
struct ChromeTraceExportTests {
  static func path(_ name: String) -> String {
    ToolRunner.packageRoot.appendingPathComponent(name).path
  }

  /// The format's rules, checked on one exported trace; returns the problems found.
  static func problems(in json: JSONValue) -> [String] {
    var problems: [String] = []
    guard let events = json["traceEvents"]?.arrayValue else { return ["no traceEvents array"] }
    var lastTS: [String: Double] = [:]
    var openAsync: [String: Double] = [:]
    var flowStarts: [String: Double] = [:]
    var flowEnds: Set<String> = []
    for (position, event) in events.enumerated() {
      func problem(_ text: String) { problems.append("event \(position): \(text)") }
      guard let phase = event["ph"]?.stringValue else {
        problem("no ph")
        continue
      }
      // Every event: name, ph, pid, tid, and ts except metadata.
      if event["name"]?.stringValue == nil { problem("no name") }
      if event["pid"]?.int64Value == nil { problem("no integer pid") }
      if event["tid"]?.int64Value == nil { problem("no integer tid") }
      let ts = event["ts"]?.doubleValue
      if phase != "M", ts == nil { problem("no ts") }
      let track = "\(event["pid"]?.int64Value ?? -1)/\(event["tid"]?.int64Value ?? -1)"
      switch phase {
      case "M":
        if event["args"]?["name"]?.stringValue == nil { problem("metadata without args.name") }
      case "X":
        guard let dur = event["dur"]?.doubleValue, dur >= 0 else {
          problem("complete event without dur ≥ 0")
          break
        }
        if let ts, let last = lastTS[track], ts < last { problem("ts goes back on \(track)") }
        if let ts { lastTS[track] = ts + dur }
      case "b", "e":
        guard let id = event["id"]?.stringValue, event["cat"]?.stringValue != nil else {
          problem("async event without id or cat")
          break
        }
        let key = "\(event["cat"]!.stringValue!)/\(id)"
        if phase == "b" {
          if openAsync[key] != nil { problem("async id \(key) begun twice") }
          openAsync[key] = ts
        } else {
          guard let begin = openAsync.removeValue(forKey: key) else {
            problem("async end \(key) without a begin")
            break
          }
          if let ts, ts < begin { problem("async \(key) ends before it begins") }
        }
      case "s", "f":
        guard let id = event["id"]?.int64Value, event["cat"]?.stringValue != nil else {
          problem("flow event without id or cat")
          break
        }
        let key = "\(id)"
        if phase == "s" {
          if flowStarts[key] != nil { problem("flow id \(key) starts twice") }
          flowStarts[key] = ts
        } else {
          guard let start = flowStarts[key] else {
            problem("flow end \(key) without a start")
            break
          }
          if let ts, ts < start { problem("flow \(key) ends before it starts") }
          if event["bp"]?.stringValue != "e" { problem("flow end without bp e") }
          flowEnds.insert(key)
        }
      case "i":
        if event["s"]?.stringValue.map({ ["g", "p", "t"].contains($0) }) != true {
          problem("instant event without scope s")
        }
      default:
        problem("unexpected phase \(phase)")
      }
    }
    for key in openAsync.keys { problems.append("async \(key) never ends") }
    for key in flowStarts.keys where !flowEnds.contains(key) {
      problems.append("flow \(key) never ends")
    }
    return problems
  }

  @Test(
    "follows the Trace Event Format's rules",
    arguments: ["counter", "todos", "bookshelf", "composed-app"])
  func rules(_ name: String) throws {
    let timeline = try TraceTimeline(path: Self.path("Traces/\(name).ndjson"))
    let json = ChromeTraceExport(timeline: timeline).json
    #expect(Self.problems(in: json) == [])
    let events = try #require(json["traceEvents"]?.arrayValue)
    #expect(events.filter { $0["ph"] == "X" }.count == timeline.steps.count)
    #expect(events.filter { $0["ph"] == "b" }.count == timeline.effects.count)
    let caused = timeline.steps.filter {
      if case .effect(let cause?) = $0.origin { return cause >= 0 }
      return false
    }
    #expect(events.filter { $0["ph"] == "s" }.count == caused.count)
  }

  @Test("names the process and the reducer and effects threads, in microseconds")
  func mapping() throws {
    let timeline = try TraceTimeline(
      path: Self.path("Tests/ToolTests/Fixtures/hostile-chat.ndjson"))
    let json = ChromeTraceExport(timeline: timeline).json
    #expect(Self.problems(in: json) == [])
    let events = try #require(json["traceEvents"]?.arrayValue)
    let threads = events.filter { $0["name"] == "thread_name" }.compactMap {
      $0["args"]?["name"]?.stringValue
    }
    #expect(threads == ["reducer", "effects"])
    let step = try #require(events.first { $0["ph"] == "X" })
    #expect(step["ts"] == 1_000)  // 0.001 s
    #expect(step["tid"] == 1)
    let ends = events.filter { $0["ph"] == "e" }
    #expect(ends.map { $0["ts"] } == [4_000, 5_000, 7_000])
    #expect(ends.map { $0["args"]?["outcome"] } == ["finished", "cancelled", "running"])
    let flow = try #require(events.first { $0["ph"] == "f" })
    #expect(flow["ts"] == 3_000)
    #expect(events.first { $0["ph"] == "s" }?["ts"] == 1_000)
  }

  @Test("the rules catch what they are for")
  func rulesBite() {
    let broken: JSONValue = [
      "traceEvents": [
        ["name": "a", "ph": "X", "ts": 5, "dur": 1, "pid": 1, "tid": 1],
        ["name": "b", "ph": "X", "ts": 2, "dur": 1, "pid": 1, "tid": 1],
        ["name": "c", "cat": "effect", "ph": "e", "id": "x", "ts": 2, "pid": 1, "tid": 2],
        ["name": "d", "cat": "cause", "ph": "s", "id": 3, "ts": 2, "pid": 1, "tid": 1],
      ]
    ]
    #expect(
      Self.problems(in: broken) == [
        "event 1: ts goes back on 1/1", "event 2: async end effect/x without a begin",
        "flow 3 never ends",
      ])
  }

  @Test("the built tool writes the export to a file, and refuses an unknown format")
  func command() throws {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("export-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let result = try ToolRunner.run(
      ["export", "Traces/todos.ndjson", "--format", "chrome-trace", "-o", output])
    #expect(result.status == 0)
    #expect(result.errors == "")
    let json = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: output))))
    #expect(Self.problems(in: json) == [])

    let unknown = try ToolRunner.run(["export", "Traces/todos.ndjson", "--format", "svg"])
    #expect(unknown.status == 64)
    #expect(unknown.errors.hasPrefix("Error: unknown format 'svg': use chrome-trace, json-patch\n"))
  }
}
