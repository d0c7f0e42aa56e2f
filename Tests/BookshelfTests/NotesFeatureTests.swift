import Architecture
import Bookshelf
import Foundation
import Testing

@MainActor
@Suite("Bookshelf: a book's notes")
struct NotesFeatureTests {
  static let bookID = UUID(counting: 3)
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("typing saves once, a second after the last keystroke (a debounce on the clock)")
  func debouncedAutosave() async {
    let clock = TestClock()
    let store = TestStore(initialState: NotesFeature.State(bookID: Self.bookID)) {
      NotesFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(Self.now)
    }

    await store.send(.textChanged("G")) {
      $0.text = "G"
    }
    await clock.advance(by: .milliseconds(600))
    await store.send(.textChanged("Go")) {
      $0.text = "Go"
    }
    await clock.advance(by: .milliseconds(600))
    await store.send(.textChanged("Gothic")) {
      $0.text = "Gothic"
    }
    // 1.2 s after the first keystroke, but only 0.6 s after the last: nothing saved yet.
    await clock.advance(by: .milliseconds(600))
    await clock.advance(by: .milliseconds(400))
    await store.receive(.autosaveTimerFired) {
      $0.lastSavedAt = Self.now
    }
    await store.receive(.delegate(.notesSaved(bookID: Self.bookID, text: "Gothic")))
  }

  @Test("done saves what is pending at once, cancels the autosave and pops the screen")
  func doneSavesAndDismisses() async throws {
    let clock = TestClock()
    let dismissed = LockIsolated(0)
    let store = TestStore(initialState: NotesFeature.State(bookID: Self.bookID)) {
      NotesFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(Self.now)
      $0.dismiss = DismissEffect { dismissed.withValue { $0 += 1 } }
    }

    await store.send(.textChanged("Whitby")) {
      $0.text = "Whitby"
    }
    await store.send(.doneButtonTapped) {
      $0.lastSavedAt = Self.now
    }
    await store.receive(.delegate(.notesSaved(bookID: Self.bookID, text: "Whitby")))
    await store.finish()
    #expect(dismissed.value == 1)
    // The pending autosave was cancelled: nothing more arrives.
    await clock.advance(by: .seconds(2))
    try await clock.checkSuspension()
  }
}
