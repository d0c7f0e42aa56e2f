import Architecture
import Bookshelf
import Foundation
import Testing

@MainActor
@Suite("Bookshelf: a book's detail")
struct BookDetailFeatureTests {
  static let book = Book(
    id: UUID(counting: 7), title: "Dracula", author: "Bram Stoker",
    addedAt: Date(timeIntervalSince1970: 1_800_000_000)
  )

  @Test("the reading timer ticks once a second on the clock until it is stopped")
  func readingTimer() async throws {
    let clock = TestClock()
    let stopped = Date(timeIntervalSince1970: 1_800_000_100)
    let store = TestStore(initialState: BookDetailFeature.State(book: Self.book)) {
      BookDetailFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(stopped)
    }

    await store.send(.startReadingButtonTapped) {
      $0.isReading = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.sessionSeconds = 1
      $0.book.secondsRead = 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.sessionSeconds = 2
      $0.book.secondsRead = 2
    }
    var read = Self.book
    read.secondsRead = 2
    read.lastReadAt = stopped
    await store.send(.stopReadingButtonTapped) {
      $0.isReading = false
      $0.book = read
    }
    // Stopped: no more ticks.
    await clock.advance(by: .seconds(5))
    try await clock.checkSuspension()
  }

  @Test("a new session starts counting from zero, and keeps the book's total")
  func secondSession() async {
    let clock = TestClock()
    var book = Self.book
    book.secondsRead = 40
    let store = TestStore(
      initialState: BookDetailFeature.State(book: book, sessionSeconds: 12)
    ) {
      BookDetailFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(Date(timeIntervalSince1970: 1_800_000_200))
    }

    await store.send(.startReadingButtonTapped) {
      $0.isReading = true
      $0.sessionSeconds = 0
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.sessionSeconds = 1
      $0.book.secondsRead = 41
    }
    await store.send(.stopReadingButtonTapped) {
      $0.isReading = false
      $0.book.lastReadAt = Date(timeIntervalSince1970: 1_800_000_200)
    }
  }

  @Test("stopping when not reading, and the buttons the shelf handles, change nothing")
  func inertActions() async {
    let store = TestStore(initialState: BookDetailFeature.State(book: Self.book)) {
      BookDetailFeature()
    }

    await store.send(.stopReadingButtonTapped)
    await store.send(.notesButtonTapped)
    await store.send(.deleteButtonTapped)
  }
}
