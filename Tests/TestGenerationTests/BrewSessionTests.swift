import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

/// What a recording tells `gen-test` about effects: what each run read, and the time on the
/// store's test clock, so that a generated test knows which effects it can run and how far to
/// move its clock.
@MainActor
@Suite("Recording what effects read")
struct BrewSessionTests {
  /// Records the session into a new file; returns its records.
  func recordFresh() async throws -> (path: String, records: [TraceRecord]) {
    let directory = Scratch.url("brew")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("brew.ndjson").path
    try await BrewSession.record(to: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let records = try text.split(separator: "\n").compactMap {
      try TraceRecord(json: JSONValue(parsing: String($0)))
    }
    return (path, records)
  }

  @Test("each effect's end names the dependencies its run read; steps carry the test clock's time")
  func effectReadsAndClock() async throws {
    let (path, records) = try await recordFresh()
    defer { try? FileManager.default.removeItem(atPath: path) }
    var readsByStep: [Int: [String]] = [:]
    var clocks: [Double] = []
    for record in records {
      switch record {
      case .effect(let event): readsByStep[event.step] = event.reads
      case .step(let step): clocks.append(try #require(step.clock))
      default: break
      }
    }
    // The saves and the timer read the clock; the recipe read its client.
    #expect(readsByStep[0] == ["ContinuousClockKey"])
    #expect(readsByStep[3] == ["ContinuousClockKey"])
    #expect(readsByStep[8] == ["BrewRecipes"])
    #expect(clocks == [0, 0.2, 0.7, 0.7, 1.7, 2.7, 3.7, 3.7, 5.7, 5.7, 5.7, 6.2])
    if GeneratedFilesDriftTests.isRecording {
      let fixture = GeneratedFile.url(BrewSession.fixture)
      try? FileManager.default.removeItem(at: fixture)
      try FileManager.default.copyItem(atPath: path, toPath: fixture.path)
    }
  }
}
