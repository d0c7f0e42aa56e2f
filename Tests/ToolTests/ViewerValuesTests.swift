import Foundation
import LongSessionApps
import Recorder
import TestSupport
import Testing
import TraceJSON

/// The viewer's values (`Viewer/Assets/values.js`, run in `node`) read as ``SwiftValue`` writes
/// them: every state and action of fresh recordings in the shapes of Point-Free's examples, of a
/// shop, of the long chat room and of an observatory (edge numbers, hostile strings, UUID twins),
/// printed by both and compared value by value.
@MainActor
@Suite(
  "The viewer's values print as SwiftValue does",
  .enabled(if: ViewerAssetsTests.node != nil, "node is not installed"))
struct ViewerValuesTests {
  /// `swift(value, type)` in `values.js` for each pair, with the trace's `types` and state type.
  static func javaScript(
    _ pairs: [(JSONValue, String?)], types: JSONValue, stateType: String
  ) throws -> [String] {
    let script = ViewerAssetsTests.assets.appendingPathComponent("values.js").path
    let driver = """
      const fs = require("fs");
      const makeSwiftForm = new Function(fs.readFileSync(process.argv[1], "utf8") +
        "; return makeSwiftForm;")();
      const input = JSON.parse(fs.readFileSync(0, "utf8"));
      const form = makeSwiftForm(input.types, input.stateType);
      process.stdout.write(JSON.stringify(input.values.map(([v, t]) => form.swift(v, t))));
      """
    let input: JSONValue = [
      "types": types, "stateType": .string(stateType),
      "values": .array(pairs.map { .array([$0.0, $0.1.map(JSONValue.string) ?? .null]) }),
    ]
    let result = try ChildProcess.run(
      try #require(ViewerAssetsTests.node), ["-e", driver, script],
      input: Data(input.jsonString.utf8), timeLimit: 60)
    #expect(result.status == 0, "\(String(decoding: result.errors, as: UTF8.self))")
    let output = try JSONValue(parsing: String(decoding: result.output, as: UTF8.self))
    return (output.arrayValue ?? []).map { $0.stringValue ?? "" }
  }

  /// Every state (initial and after each step) and every action of the trace at `path`.
  static func values(_ path: String) throws -> (TraceIndex, [(JSONValue, String?)]) {
    let trace = try TraceIndex(path: path)
    var pairs: [(JSONValue, String?)] = [
      (try trace.state(afterStep: nil), trace.header.stateType)
    ]
    for index in trace.stepIndices {
      pairs.append((try trace.state(afterStep: index), trace.header.stateType))
      if let action = try trace.step(at: index).action {
        pairs.append((action, trace.header.actionType))
      }
    }
    return (trace, pairs)
  }

  @Test(
    "every state and action of fresh recordings prints the same in both",
    arguments: ["board", "shop", "chat room", "observatory", "vault"])
  func same(recording: String) async throws {
    let path: String
    switch recording {
    case "board": path = try SwiftFormShapesTests.record()
    case "shop": path = try SwiftFormValueTests.recordShop()
    case "chat room":
      // Bindings, alerts with UUID payloads, a stack, dates keyed by name: 442 steps.
      path = FileManager.default.temporaryDirectory
        .appendingPathComponent("chat-\(UUID().uuidString).ndjson").path
      _ = try await LongSession.chatRoom.record(to: path)
    case "vault":
      // Actions whose whole payload a rule hides.
      let folder = Scratch.url("vault")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      path = try RedactedChangeTests.record(
        RedactedChangeTests.first, in: folder, name: "vault.ndjson")
    default: path = try ObservatoryFeature.record()
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (trace, pairs) = try Self.values(path)
    let schema = trace.typeSchema()
    let swift = pairs.map { SwiftValue($0.0, type: $0.1, schema: schema).text }
    let javaScript = try Self.javaScript(
      pairs, types: schema.json, stateType: trace.header.stateType)
    #expect(javaScript.count == swift.count)
    for (position, (expected, actual)) in zip(swift, javaScript).enumerated() {
      #expect(actual == expected, "value \(position)")
    }
  }
}
