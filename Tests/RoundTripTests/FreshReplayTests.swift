import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON


/// The verdict on unchanged code: every session, recorded now by today's recorder, replays
/// through today's reducers with no divergence, in every mode the tool has.
@Suite("Fresh recordings of unchanged apps replay clean")
struct FreshReplayTests {
  static let tool = executable("tca-replay")
  static let host = executable("round-trip-host")

  @Test("verify reports 0 diverging steps", arguments: FreshSession.allCases)
  func verifyIsClean(session: FreshSession) async throws {
    let trace = try await session.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let result = try ChildProcess.run(Self.tool, ["verify", trace, "--host", Self.host])
    let output = String(decoding: result.output + result.errors, as: UTF8.self)
    #expect(result.status == 0, "\(output)")
    #expect(output.contains("1 ok, 0 diverge"), "\(output)")
  }

  @Test(
    "bisect --all finds nothing, in isolated and in cumulative mode",
    arguments: FreshSession.allCases, ["isolated", "cumulative"])
  func bisectIsClean(session: FreshSession, mode: String) async throws {
    let trace = try await session.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let result = try ChildProcess.run(
      Self.tool, ["bisect", trace, "--host", Self.host, "--mode", mode, "--all", "--json"])
    let output = String(decoding: result.output + result.errors, as: UTF8.self)
    #expect(result.status == 0, "\(output)")
    let report = try JSONValue(parsing: result.output)
    #expect(report["divergentSteps"] == .number(0), "\(output)")
  }

  @Test("the fresh recording is in today's format and records navigation ids by name")
  func itineraryRecordsNamedIDs() async throws {
    let trace = try await FreshSession.itinerary.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let text = try String(contentsOfFile: trace, encoding: .utf8)
    let steps = text.split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"step""#) }
    #expect(steps.count > 50)
    #expect(text.hasPrefix("{\"kind\":\"header\",\"version\":\(traceFormatVersion),"))
    let ids = Set(
      steps.flatMap { line -> [String] in
        guard let step = try? JSONValue(parsing: Array(line.utf8)).objectValue else { return [] }
        return (step["cancellable"]?.arrayValue ?? []).compactMap(\.stringValue)
      })
    let planner = #"\State.$planner(id: 00000000-0000-0000-0000-000000000000)"#
    #expect(
      ids.contains("\(planner) / \\State.path[id: 0] / Itinerary.StopFeature.CancelID.estimate"),
      "\(ids.sorted())")
    #expect(!text.contains("0x0"), "an id holds an address")
    #expect(!text.contains("unknown context"), "an id holds an address")
  }

  /// An executable built next to the test bundle.
  static func executable(_ name: String) -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent(name).path
  }
}
