import Architecture
import Foundation
import Recorder
import Testing
import TraceJSON

@testable import tca_replay

/// The tool reads what it prints: on the harbour session, recorded in this run, every label
/// `log` prints and every action `show` prints reads back as the recorded action, and every path
/// `show` prints, with its element named by id in any printed form, finds the value shown.
@Suite("printed forms read back")
struct PrintedFormRoundTripTests {
  /// `log`'s label of each step, by index.
  static func labels(_ trace: String) throws -> [Int: String] {
    let log = try ToolRunner.run(["log", trace])
    #expect(log.status == 0, "\(log.errors)")
    var labels: [Int: String] = [:]
    for line in log.output.split(separator: "\n") {
      // `     3  0.020 s   send          .todo(…)`: the label follows the origin's column.
      let words = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
      guard words.count == 5, let index = Int(words[0]), words[3] == "send" else { continue }
      labels[index] = String(words[4]).trimmingWhitespace
    }
    return labels
  }

  /// `show`'s lines for a step.
  static func show(_ trace: String, _ step: Int) throws -> [String] {
    let show = try ToolRunner.run(["show", trace, String(step)])
    #expect(show.status == 0, "\(show.errors)")
    return show.output.split(separator: "\n").map(String.init)
  }

  @Test("each label log prints and each action show prints reads back as the recorded action")
  func actionsReadBack() throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let trace = try TraceIndex(path: path)
    let labels = try Self.labels(path)
    #expect(labels.count == Harbor.session.count)
    var state = Harbor.State()
    for (step, original) in Harbor.session.enumerated() {
      let recorded = try #require(try trace.step(at: step).action)
      let shown = try #require(
        Self.show(path, step).first { $0.hasPrefix("action  ") }?.dropFirst("action  ".count))
      for text in [try #require(labels[step]), String(shown)] {
        let read: JSONValue
        do throws(ActionText.ParseError) {
          read = try trace.readAction(text, near: step)
        } catch {
          Issue.record("step \(step): \(text): \(error.message)")
          continue
        }
        #expect(read == recorded, "step \(step): \(text)")
        // What `edit` sends is decoded by the host as today's action: the same action, so the
        // same step.
        let action = try JSONValueDecoder().decode(Reflected<Harbor.Action>.self, from: read).value
        #expect(action == original, "step \(step): \(text)")
        var edited = state
        var replayed = state
        _ = Harbor().reduce(into: &edited, action: action)
        _ = Harbor().reduce(into: &replayed, action: original)
        #expect(edited == replayed, "step \(step): \(text)")
      }
      _ = Harbor().reduce(into: &state, action: original)
    }
  }

  @Test("each path show prints, its element named by any printed id, finds the value show prints")
  func pathsReadBack() throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let trace = try TraceIndex(path: path)
    let schema = trace.typeSchema()
    var checked = 0
    for step in trace.stepIndices {
      let state = try trace.state(afterStep: step)
      for line in try Self.show(path, step) {
        // `  ~ /vessels/0/berth: nil → .north`, `  + /vessels/2: Harbor.Vessel(…)`.
        guard line.hasPrefix("  ~ /") || line.hasPrefix("  + /"),
          let colon = line.range(of: ": ")
        else { continue }
        let pointerText = String(line[line.index(line.startIndex, offsetBy: 4)..<colon.lowerBound])
        let shownValue = String(line[colon.upperBound...]).components(separatedBy: " → ").last!
        let pointer = try #require(JSONPointer(pointerText))
        let value = try #require(pointer.resolve(in: state))
        // The value show printed is the value there.
        let type = StatePath(pointer).components.isEmpty
          ? nil : schema.valueType(at: StatePath(pointer), in: trace.header.stateType)
        // A diff cuts a long value to its start (`Harbor.Vessel(id: …, name: …`): not a value.
        if !shownValue.hasSuffix("…") {
          let reader = SwiftValueReader(schema: schema, known: SwiftValueReader.strings(in: [state]))
          #expect(try reader.json(shownValue, type: type) == value, "step \(step): \(line)")
        }
        for selector in try Self.printedSelectors(pointer, path: path, step: step, state: state) {
          let run = try ToolRunner.run(["state", path, String(step), "--path", selector, "--json"])
          #expect(run.status == 0, "step \(step) \(selector): \(run.errors)")
          #expect(
            try JSONValue(parsing: run.output.trimmingWhitespace) == value,
            "step \(step) \(selector)")
          checked += 1
        }
      }
    }
    #expect(checked >= 20)
  }

  /// `pointer` with each vessel named by id, in each form the tool prints an id: as `state`
  /// prints it, as a label prints it, and whole.
  static func printedSelectors(
    _ pointer: JSONPointer, path: String, step: Int, state: JSONValue
  ) throws -> [String] {
    guard pointer.tokens.count >= 2, pointer.tokens[0] == "vessels",
      let index = Int(pointer.tokens[1])
    else { return [] }
    let id = try #require(state["vessels"]?.arrayValue?[index]["id"]?.stringValue)
    let printed = try ToolRunner.run([
      "state", path, String(step), "--path", "/vessels/\(index)/id",
    ]).output.trimmingWhitespace
    let rest = pointer.tokens.dropFirst(2).map { "/" + JSONPointer.escape($0) }.joined()
    return [printed, PrintedForm.uuidLabel(id), id].map { "/vessels[id=\($0)]" + rest }
  }
}
