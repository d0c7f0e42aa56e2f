import Foundation
import Recorder
import Testing
import TraceJSON

@testable import tca_replay

/// `--until` conditions written with the values the tool prints, on the harbour session
/// recorded in this run: a `Duration` as `.seconds(…)`, a `Date` in ISO 8601, a `UUID` as
/// `UUID(…)` or a label's `3F25…3301`, in paths and compared values.
@Suite("--until reads printed values")
struct PrintedFormUntilTests {
  /// The steps after which `condition` holds, in the recording.
  static func steps(where condition: String, in trace: TraceIndex) throws -> [Int] {
    let predicate = try StatePredicate(condition)
    return try trace.stepIndices.filter { predicate.holds(in: try trace.state(afterStep: $0)) }
  }

  @Test("a Duration compares by its printed form, in order", arguments: [
    ("/window <= .milliseconds(250)", Array(4...14)),
    ("/window > .seconds(1)", [0, 1, 2, 3]),
    ("/window == .milliseconds(250)", Array(4...14)),
    ("/window == .seconds(0.25)", Array(4...14)),
    ("/vessels/0/dwell >= .seconds(1.5)", Array(6...14)),
    ("/vessels[id=UUID(9B1C77A2…)]/dwell == .milliseconds(40)", [13, 14]),
    ("/vessels[id=9B1C…5F60]/dwell < .zero", []),
  ])
  func durations(condition: String, expected: [Int]) throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try Self.steps(where: condition, in: TraceIndex(path: path)) == expected, "\(condition)")
  }

  @Test("a Date compares by its ISO 8601 form or its initializer", arguments: [
    ("/lastDocking == 2026-11-22T01:33:20.500Z", Array(5...8)),
    ("/lastDocking > 2026-11-22T01:33:20.500Z", Array(9...14)),
    ("/vessels[id=UUID(1)]/eta == 2026-11-22T01:26:40.250Z", Array(1...10)),
    ("/vessels[id=UUID(9B1C77A2…)]/eta < 2001-01-01T00:00:00Z", [12, 13, 14]),
    ("/vessels[id=UUID(9B1C77A2…)]/eta == Date(timeIntervalSinceReferenceDate: -3600.0)", [12, 13, 14]),
  ])
  func dates(condition: String, expected: [Int]) throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try Self.steps(where: condition, in: TraceIndex(path: path)) == expected, "\(condition)")
  }

  @Test("a UUID compares whole, counted, or by the ends a label keeps", arguments: [
    ("/selected == UUID(3F2504E0-4F89-11D3-9A0C-0305E82C3301)", [8, 9]),
    ("/selected == 3F25…3301", [8, 9]),
    ("/selected == 3F25…3302", []),
    ("/selected != nil", [8, 9]),
    ("/vessels/1/id == UUID(1)", Array(1...10)),
    ("/vessels/1/id == 0000…0001", Array(1...10)),
  ])
  func uuids(condition: String, expected: [Int]) throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try Self.steps(where: condition, in: TraceIndex(path: path)) == expected, "\(condition)")
  }

  @Test("enums and dictionaries compare as printed, nested cases as written",
    arguments: [
      ("/vessels[id=UUID(1)]/berth == .north", Array(5...10)),
      ("/vessels/0/berth == .south", Array(9...14)),
      ("/vessels[id=3F25…3302]/cargo == .tanker(.crude)", Array(7...14)),
      ("/vessels/0/cargo == .tanker(.lng(pressure: 2.5))", Array(0...14)),
      ("/tally == [\"Aurora\": 1, \"Kestrel\": 1, \"Borealis\": 1]", Array(2...11)),
    ])
  func enums(condition: String, expected: [Int]) throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let trace = try TraceIndex(path: path)
    let predicate = try StatePredicate(condition).typed(
      stateType: trace.header.stateType, schema: trace.typeSchema())
    let steps = try trace.stepIndices.filter { predicate.holds(in: try trace.state(afterStep: $0)) }
    #expect(steps == expected, "\(condition)")
  }

  @Test("shrink reads a printed --until and checks it against the recording's initial state")
  func shrinkReadsPrintedCondition() throws {
    let path = try Harbor.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try ToolRunner.run([
      "shrink", path, "--host", "/nonexistent-host", "--until", "/window == .seconds(90)",
    ])
    #expect(run.status == 64)
    #expect(run.errors.contains("holds in the initial state already"), "\(run.errors)")
  }
}
