import Architecture
import Foundation
import Recorder
import Testing

/// A sighting log in a shape no example has, written as a TCA user writes it (no `Codable`):
/// each sighting stamps a date and a UUID that the dependencies give.
struct SightingLog: Reducer {
  /// Seconds added to every stamp: a changed reducer that diverges in a date and a UUID.
  var drift: TimeInterval = 0

  struct State: Equatable {
    var lastSeen: Date?
    var sightings: [UUID] = []
  }

  enum Action {
    case spotted
  }

  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.lastSeen = now.addingTimeInterval(drift)
      let stranger = UUID(uuidString: "C0FFEE00-0000-4000-8000-0000000000AB")!
      state.sightings.append(drift == 0 ? uuid() : stranger)
      return .none
    }
  }

  /// Records three sightings through today's recorder and returns the trace's path.
  @MainActor
  static func record() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sightings-\(UUID().uuidString).ndjson").path
    let recorder = try TraceRecorder(path: path)
    let store = Store(initialState: State()) { Self().recording(to: recorder) } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 821_692_800))
    }
    for _ in 0..<3 { store.send(.spotted) }
    try recorder.close()
    return path
  }
}

@Suite("A replay report prints values in the tool's Swift form")
struct ReplayReportValueTests {
  @Test("assertReplay's failure shows a date in ISO 8601 and UUIDs as UUID(n), not their JSON")
  func assertReplayPrintsSwiftForms() async throws {
    let path = try await SightingLog.record()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let issues = try await withIssueCapture {
      try await assertReplay(trace: path, reducer: SightingLog(drift: 1))
    }
    try #require(issues.count == 1)
    let message = issues[0].message
    #expect(message.contains("step 0 diverges from the recording"), "\(message)")
    #expect(message.contains("− 2027-01-15T08:00:00Z"), "\(message)")
    #expect(message.contains("+ 2027-01-15T08:00:01Z"), "\(message)")
    #expect(message.contains("− UUID(0)"), "\(message)")
    #expect(message.contains("+ UUID(C0FFEE00…)"), "\(message)")
    // The JSON forms the report printed before: seconds since 2001, quoted UUID strings.
    #expect(!message.contains("821692800"), "\(message)")
    #expect(!message.contains("\"00000000-0000-0000-0000-000000000000\""), "\(message)")
  }
}
