import Architecture
import ExampleSessions
import Foundation
import Itinerary
import Recorder
import Testing

/// A session recorded fresh, in this test run, by today's recorder.
enum FreshSession: String, CaseIterable, CustomTestStringConvertible {
  case counter, todos, composedApp = "composed-app", bookshelf, itinerary

  var testDescription: String { rawValue }

  /// Records the session to a new file and returns its path.
  @MainActor
  func record() async throws -> String {
    try await recordFresh(rawValue) { recorder in
      switch self {
      case .counter: await ExampleSession.counter.record(to: recorder)
      case .todos: await ExampleSession.todos.record(to: recorder)
      case .composedApp: await ExampleSession.composedApp.record(to: recorder)
      case .bookshelf: await ExampleSession.bookshelf.record(to: recorder)
      case .itinerary: await recordItinerary(to: recorder)
      }
    }
  }

  @MainActor
  private func recordItinerary(to recorder: TraceRecorder) async {
    let clock = TestClock()
    let store = Store(initialState: TripsFeature.State()) {
      TripsFeature().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
      $0.uuid = .incrementing
      $0.stackElementID = .incrementing()
    }
    let driver = SessionDriver(store: store, clock: clock)
    await playItinerarySession(
      state: { store.state }, send: { await driver.send($0) },
      advance: { await driver.advance(by: $0) })
  }
}

/// Records `session` to a new file in the temporary directory, named after `name`, closes the
/// recorder and returns the file's path.
@MainActor
func recordFresh(
  _ name: String, _ session: (TraceRecorder) async -> Void
) async throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("round-trip-\(UUID().uuidString)-\(name).ndjson").path
  let recorder = try TraceRecorder(path: path)
  await session(recorder)
  try recorder.close()
  return path
}
