import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class JournalEditorTests: XCTestCase {
  let lastYear = (1...365).map { JournalEntry(title: "Day \($0)", body: "Watered the beds.") }

  func testTheLastSaveHoldsTheLatestEdits() async throws {
    // Effects run one at a time on the main actor, so an older debounced save never lands
    // after a newer one. Many runs make a race, were there one, all but certain to show.
    for _ in 1...100 {
      let saved = ActorIsolated<[JournalEntry]>([])
      let store = TestStore(initialState: JournalEditor.State(pastEntries: self.lastYear)) {
        JournalEditor()
      } withDependencies: {
        $0.continuousClock = ImmediateClock()
        $0.journalClient.save = { data in
          let journal = try JSONDecoder().decode([JournalEntry].self, from: data)
          await saved.withValue { $0.append(journal[journal.count - 1]) }
        }
      }

      await store.send(.titleChanged("Sp")) {
        $0.entry.title = "Sp"
      }
      await store.send(.titleChanged("Spring")) {
        $0.entry.title = "Spring"
      }
      await store.send(.bodyChanged("Sowed tomatoes.")) {
        $0.entry.body = "Sowed tomatoes."
      }
      .finish()

      let last = await saved.value.last
      XCTAssertEqual(last, JournalEntry(title: "Spring", body: "Sowed tomatoes."))
    }
  }

  func testFinishingWaitsForWhatTheEffectsActionsStarted() async throws {
    for _ in 1...100 {
      let saved = ActorIsolated<[JournalEntry]>([])
      let store = TestStore(
        initialState: JournalEditor.State(
          entry: JournalEntry(title: "Frost", body: "Covered the seedlings overnight."),
          pastEntries: self.lastYear
        )
      ) {
        JournalEditor()
      } withDependencies: {
        $0.continuousClock = ImmediateClock()
        $0.journalClient.save = { data in
          let journal = try JSONDecoder().decode([JournalEntry].self, from: data)
          await saved.withValue { $0.append(journal[journal.count - 1]) }
        }
        $0.journalClient.summarize = { _ in "Frost cover" }
      }
      store.exhaustivity = .off

      // The summary comes back in an action that starts the last save: finishing the tap's
      // task waits for it too.
      await store.send(.doneButtonTapped).finish()

      let last = await saved.value.last
      XCTAssertEqual(last?.summary, "Frost cover")
    }
  }

  func testLoadsArriveInTheOrderTheirEffectsStarted() async {
    for _ in 1...100 {
      let store = TestStore(initialState: JournalEditor.State()) {
        JournalEditor()
      } withDependencies: {
        $0.continuousClock = ImmediateClock()
        $0.journalClient.load = { JournalEntry(title: "Seedlings", body: "") }
        $0.journalClient.prompt = { "What grew this week?" }
        $0.journalClient.save = { _ in }
      }

      await store.send(.task)
      await store.receive(.entryLoaded(JournalEntry(title: "Seedlings", body: ""))) {
        $0.entry.title = "Seedlings"
      }
      await store.receive(.promptLoaded("What grew this week?")) {
        $0.prompt = "What grew this week?"
      }
      await store.finish()
    }
  }
}
