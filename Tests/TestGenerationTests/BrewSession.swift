import Architecture
import Foundation
import Recorder

@testable import Shapes

/// Records the brew timer's session (`Tests/Shapes/BrewTimerFeature.swift`) on a test clock:
/// two quick note edits and their one debounced save, a timer run for three ticks and stopped,
/// a recipe from a client, and one more edit. The committed fixture
/// `Fixtures/brew.ndjson` is this recording; `RECORD_GENERATED_TESTS=1` records it again.
enum BrewSession {
  static let fixture = "Tests/TestGenerationTests/Fixtures/brew.ndjson"

  /// Records the session into `path`.
  @MainActor
  static func record(to path: String) async throws {
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 0))
    let clock = TestClock()
    let store = Store(initialState: BrewTimerFeature.State()) {
      BrewTimerFeature().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
      $0.brewRecipes = BrewRecipes { "V60: 15 g, 250 ml, 3 min" }
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 790_000_000))
    }
    /// Yields until `condition` holds and every running effect sleeps on the clock.
    func settle(until condition: (BrewTimerFeature.State) -> Bool = { _ in true }) async {
      for _ in 0..<1_000_000 {
        if condition(store.state), store.runningEffectCount == clock.sleeperCount { return }
        await Task.yield()
      }
    }
    func advance(by duration: Duration, until condition: (BrewTimerFeature.State) -> Bool) async {
      await settle()
      await clock.advance(by: duration)
      await settle(until: condition)
    }

    store.send(.notesChanged("Bloom"))
    await advance(by: .milliseconds(200)) { _ in true }
    store.send(.notesChanged("Bloom 30 s"))
    await advance(by: .milliseconds(500)) { $0.savedNotes == "Bloom 30 s" }

    store.send(.startTapped)
    for second in 1...3 {
      await advance(by: .seconds(1)) { $0.seconds == second }
    }
    store.send(.stopTapped)
    await advance(by: .seconds(2)) { _ in true }

    store.send(.recipeTapped)
    await settle { $0.recipe != nil }

    store.send(.notesChanged("Bloom 30 s, swirl"))
    await advance(by: .milliseconds(500)) { $0.savedNotes == "Bloom 30 s, swirl" }
    try recorder.close()
  }
}
