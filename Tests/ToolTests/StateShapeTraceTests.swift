import Architecture
import Foundation
import Recorder
import Testing
import TraceJSON

/// Plain arrays with duplicates, dictionaries keyed by strings, integers and UUIDs, sets, nested
/// optionals, a long string and `Data`, recorded to a file: the patches rebuild every state,
/// reloading checks clean against the keyframes, replay matches, and the export is plain RFC
/// 6902.
@Suite("State shapes, recorded end to end")
@MainActor
struct StateShapeTraceTests {
  struct Item: Codable, Equatable, Hashable, Sendable {
    var title: String
    var done = false
  }

  struct State: Codable, Equatable, Sendable {
    var numbers: [Int] = (0..<120).map { $0 % 11 }
    var items: [Item] = (0..<40).map { Item(title: "item \($0 % 9)") }
    var byName: [String: Item] = Dictionary(
      uniqueKeysWithValues: (0..<40).map { ("name \($0)", Item(title: "\($0)")) })
    var byNumber: [Int: [Int]?] = Dictionary(
      uniqueKeysWithValues: (0..<40).map { ($0 * 3, $0.isMultiple(of: 4) ? nil : [$0]) })
    var byUUID: [UUID: Int] = Dictionary(
      uniqueKeysWithValues: (0..<40).map { (StateShapeTraceTests.uuid($0), $0) })
    var tags: Set<String> = Set((0..<40).map { "tag \($0)" })
    var nested: [String: [Int?]]?? = .some(.some(["a": [1, nil, 3]]))
    var text = String(repeating: "héllo wörld ", count: 120)
    var blob = Data((0..<600).map { UInt8(truncatingIfNeeded: $0) })
  }

  nonisolated static func uuid(_ number: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-0000-0000-%012X", number))!
  }

  /// Seeded: the edit at each step is the same in every run, and replay sees the same actions.
  struct Feature: Reducer {
    enum Action: Codable, Equatable, Sendable { case edited(seed: UInt64) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      guard case .edited(var seed) = action else { return .none }
      func next(_ bound: Int) -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Int((seed >> 33) % UInt64(max(bound, 1)))
      }
      let number = next(60)
      switch next(16) {
      case 0: state.numbers.insert(number % 11, at: next(state.numbers.count + 1))
      case 1: if !state.numbers.isEmpty { state.numbers.remove(at: next(state.numbers.count)) }
      case 2:
        if !state.numbers.isEmpty {
          let moved = state.numbers.remove(at: next(state.numbers.count))
          state.numbers.insert(moved, at: next(state.numbers.count + 1))
        }
      case 3: if !state.items.isEmpty { state.items[next(state.items.count)].done.toggle() }
      case 4: state.items.insert(Item(title: "new"), at: next(state.items.count + 1))
      case 5: state.byName["name \(number)", default: Item(title: "+")].done.toggle()
      case 6: state.byName["name \(number)"] = nil
      case 7: state.byNumber[number * 3] = number.isMultiple(of: 2) ? .some(nil) : [number]
      case 8: state.byNumber[number * 3] = nil
      case 9: state.byUUID[StateShapeTraceTests.uuid(number), default: 0] += 1
      case 10: state.byUUID[StateShapeTraceTests.uuid(number)] = nil
      case 11: if state.tags.remove("tag \(number)") == nil { state.tags.insert("tag \(number)") }
      case 12: state.nested = number.isMultiple(of: 3) ? .some(nil) : .some(.some(["a": [number, nil]]))
      case 13:
        let offset = next(state.text.unicodeScalars.count)
        let index = state.text.unicodeScalars.index(state.text.startIndex, offsetBy: offset)
        state.text.unicodeScalars.insert(number.isMultiple(of: 2) ? "ü" : "x", at: index)
      case 14: state.blob[next(state.blob.count)] = UInt8(truncatingIfNeeded: number)
      default:
        if !state.text.isEmpty { state.text.remove(at: state.text.index(before: state.text.endIndex)) }
      }
      return .none
    }
  }

  static let steps = 500

  /// The trace both tests read, recorded once in the run: its path and every step's state.
  static let recording = Result { try record() }

  /// Records the trace; returns its path and the encoding of the state after every step.
  static func record() throws -> (String, [JSONValue]) {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("shapes-\(UUID().uuidString).ndjson").path
    let recorder = TraceRecorder(
      sink: try .file(atPath: path), options: .init(queueCapacity: Self.steps + 1))
    let reducer = Reduce(Feature().recording(to: recorder))
    var state = State()
    var states: [JSONValue] = []
    for step in 0..<Self.steps {
      _ = reducer.reduce(into: &state, action: .edited(seed: UInt64(step) &* 2_654_435_761))
      states.append(try JSONValueEncoder().encode(state))
    }
    try recorder.close()
    return (path, states)
  }

  @Test("every shape's patches rebuild every state, keyframes check clean, and replay matches")
  func recordReloadReplay() throws {
    let (path, states) = try Self.recording.get()
    #expect(CheckedTraceReader.firstProblem(in: path) == nil)
    let trace = try TraceIndex(path: path)
    #expect(trace.stepCount == Self.steps)
    // Backwards from a keyframe too: the index steps either way, through inverted splices.
    for step in stride(from: Self.steps - 1, through: 0, by: -7) {
      #expect(try trace.state(afterStep: step) == states[step], "step \(step)")
    }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""op":"splice""#))
    #expect(text.contains(#""op":"move""#))
    #expect(text.contains(#"{"kind":"keyframe""#))
    let report = try assertReplay(trace: path, reducer: Feature())
    #expect(report.matches)
    #expect(report.notReplayable.isEmpty)
  }

  @Test("export --format json-patch writes the same trace with plain RFC 6902 patches")
  func exportPlain() throws {
    let (path, states) = try Self.recording.get()
    let result = try ToolRunner.run(["export", path, "--format", "json-patch"])
    #expect(result.status == 0, "\(result.errors)")
    #expect(!result.output.contains(#""op":"splice""#))
    var state = JSONValue.null
    var step = 0
    for line in result.output.split(separator: "\n") {
      let record = try JSONValue(parsing: String(line))
      switch record["kind"] {
      case .string("header"): state = record["initialState"]!
      case .string("step"):
        state = try JSONPatch(json: record["patch"]!).apply(to: state)
        #expect(state == states[step], "step \(step)")
        step += 1
      default: break
      }
    }
    #expect(step == Self.steps)
    let usage = try ToolRunner.run(["export", path, "--format", "yaml"])
    #expect(usage.status == 64)
  }
}
