import Foundation
import Recorder
import TraceJSON
import Testing

/// `tca-replay shrink` on long sessions of apps no example resembles, recorded in this run:
/// an elevator whose today's reducer traps (the recording process died of it), a greenhouse
/// whose today's reducer counts a harvest wrong, and a condition on the greenhouse's state.
@Suite("shrink", .serialized)
struct ShrinkTests {
  static let host = Paths.executable("mutant-replay-host") + " shrink-apps"
  static let unchangedHost = Paths.executable("mutant-replay-host") + " shrink-apps-unchanged"

  /// Records `app`'s long session of `steps` in a child process; the elevator's dies.
  static func record(_ app: String, steps: Int = 2_000) async throws -> String {
    let path = Paths.temporary("\(app).ndjson")
    let run = try await Run.run("mutant-replay-host", ["record-long", app, String(steps), path])
    #expect(FileManager.default.fileExists(atPath: path), "\(run.errors)")
    return path
  }

  /// The trace's step and crash records, parsed.
  static func records(_ path: String) throws -> [JSONValue] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try JSONValue(parsing: Array($0.utf8))
    }
    .filter { ["step", "crash"].contains($0["kind"]?.stringValue) }
  }

  @Test("a crash that needs 3 of 2,000 sent actions, in order, shrinks to those 3")
  func crash() async throws {
    // The shrink `ShrinkTrustTests` checks for 1-minimality: made once in the run.
    let (shrunk, run) = try await ShrinkTrustTests.shrink(ShrinkTrustTests.cases[0])
    #expect(run.output.contains("the reducer crashes: ReplayMutants/Elevator.swift:"))
    #expect(run.output.contains("shrinking 2324 steps (2000 sent actions)"))
    let records = try Self.records(shrunk)
    #expect(records.compactMap { $0["label"]?.stringValue } == [
      ".maintenanceKeyTurned", ".emergencyStop", ".resume",
    ])
    #expect(records.last?["kind"] == "crash")

    // The shrunk trace fails as the session did: replaying it crashes at its last step.
    let bisect = try await Run.tool("bisect", shrunk, "--host", Self.host, "--mode", "cumulative")
    #expect(bisect.status == 1)
    #expect(bisect.output.contains("still crashes the reducer, as when recorded"), "\(bisect.output)")

    let test = try await Run.tool("gen-test", shrunk)
    #expect(test.status == 0, "\(test.errors)")
    #expect(test.output.contains("await store.send(.maintenanceKeyTurned)"))
    #expect(test.output.contains("processExitsWith: .success"))
    // The crashing action as Swift, not JSON: the shrunk trace describes its case.
    #expect(test.output.contains("await store.send(.resume)"))
    // Issue 28's target for the test of a 3-action crash.
    let lines = test.output.filter { $0 == "\n" }.count
    #expect(lines <= 60, "\(lines) lines")
  }

  @Test("a divergence keeps the step that diverges and what it needs; the trace expects the recorded change")
  func divergence() async throws {
    let (shrunk, run) = try await ShrinkTrustTests.shrink(ShrinkTrustTests.cases[1])
    #expect(run.output.contains("changes /zones/*/harvested otherwise than the recording"))
    let labels = try Self.records(shrunk).compactMap { $0["label"]?.stringValue }
    // The vents, the zone's fertilizing and its harvest: any one fewer and it counts right.
    #expect(labels.count == 3, "\(labels)")
    #expect(labels.first == ".ventOpened")
    #expect(labels.dropFirst().allSatisfy { $0.hasPrefix(".fertilized") || $0.hasPrefix(".harvested") })

    // Today's reducer diverges at the last step, where the recorded reducer does not.
    let today = try await Run.tool("bisect", shrunk, "--host", Self.host, "--mode", "cumulative")
    #expect(today.status == 1)
    #expect(today.output.contains("harvested"), "\(today.output)")
    let recorded = try await Run.tool(
      "bisect", shrunk, "--host", Self.unchangedHost, "--mode", "cumulative")
    #expect(recorded.status == 0, "\(recorded.output)")
  }

  @Test("--until shrinks to the fewest actions that make the condition true")
  func until() async throws {
    let trace = try await ShrinkTrustTests.Shrinks.shared.recording("greenhouse", steps: 2_000)
    let shrunk = Paths.temporary("greenhouse.until.ndjson")
    let run = try await Run.tool(
      "shrink", trace, "--host", Self.unchangedHost, "--until", "/zones/1/moisture >= 90",
      "--output", shrunk)
    #expect(run.status == 0, "\(run.errors)")
    let labels = try Self.records(shrunk).compactMap { $0["label"]?.stringValue }
    // From 40, every watering adds 5 to 14: 50 more takes 4 at least.
    #expect(labels.count == 4 && labels.allSatisfy { $0.hasPrefix(".watered(zone: 1,") }, "\(labels)")
    let last = try await Run.tool("state", shrunk, "last", "--path", "/zones/1/moisture")
    #expect((Int(last.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 90)
  }

  @Test("a session that does not fail has nothing to shrink, and says so")
  func nothingToShrink() async throws {
    let trace = try await ShrinkTrustTests.Shrinks.shared.recording("greenhouse", steps: 200)
    let run = try await Run.tool("shrink", trace, "--host", Self.unchangedHost)
    #expect(run.status == 1)
    #expect(run.errors.contains("the session does not fail"))
    let never = try await Run.tool(
      "shrink", trace, "--host", Self.unchangedHost, "--until", "/zones/1/moisture > 100")
    #expect(never.status == 1)
    #expect(never.errors.contains("without /zones/1/moisture > 100 coming true"))
  }

  @Test("a malformed condition is a usage error naming it")
  func badCondition() async throws {
    let run = try await Run.tool("shrink", "x.ndjson", "--host", "true", "--until", "/a >")
    #expect(run.status == 64)
    #expect(run.errors.contains("nothing to compare with after '>'"))
  }

  @Test("shrink refuses to overwrite its trace, and conditions that cannot tell, before replaying")
  func refusals() async throws {
    let trace = try await ShrinkTrustTests.Shrinks.shared.recording("greenhouse", steps: 200)
    let before = try Data(contentsOf: URL(fileURLWithPath: trace))
    let same = try await Run.tool("shrink", trace, "--host", Self.host, "-o", trace)
    #expect(same.status == 64)
    #expect(same.errors.contains("'--output' is the trace itself"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
    let already = try await Run.tool(
      "shrink", trace, "--host", Self.unchangedHost, "--until", "/zones/1/moisture")
    #expect(already.status == 64)
    #expect(already.errors.contains("holds in the initial state already"))
    let impossible = try await Run.tool(
      "shrink", trace, "--host", Self.unchangedHost, "--until", "/zones/1/moistur >= 90")
    #expect(impossible.status == 64)
    #expect(impossible.errors.contains("no member 'moistur'"))
    let folder = try await Run.tool(
      "shrink", trace, "--host", Self.host, "-o", Paths.temporary("none") + "/x.ndjson")
    #expect(folder.status == 73)
  }
}
