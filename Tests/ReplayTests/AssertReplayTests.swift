import Architecture
import Counter
import Recorder
import ReplayMutants
import Testing
import Todos

@Suite("assertReplay")
struct AssertReplayTests {
  @Test("passes silently when the reducer reproduces the trace")
  func passes() async throws {
    let issues = try await withIssueCapture {
      try await assertReplay(trace: Paths.trace("todos.ndjson"), reducer: TodosFeature())
    }
    #expect(issues == [])
  }

  @Test("fails the test with the report when the reducer diverges, at the caller's line")
  func fails() async throws {
    let issues = try await withIssueCapture {
      try await assertReplay(trace: Paths.trace("todos.ndjson"), reducer: SavedDateDropped())
    }
    try #require(issues.count == 1)
    let message = issues[0].message
    #expect(message.hasPrefix("Replaying the trace does not reproduce the recording:"))
    #expect(message.contains("todos.ndjson: step 9 diverges from the recording"))
    #expect(message.contains("/lastSavedAt"))
    #expect(issues[0].fileID.hasSuffix("AssertReplayTests.swift"))
  }
}
