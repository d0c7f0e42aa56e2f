import Architecture
import Bookshelf
import Foundation
import Testing

@MainActor
@Suite("Bookshelf: the add-book form")
struct BookFormFeatureTests {
  static let prideAndPrejudice = BookInfo(title: "Pride and Prejudice", author: "Jane Austen")

  @Test("title and author change through binding actions, in both spellings")
  func bindings() async {
    let store = TestStore(initialState: BookFormFeature.State()) {
      BookFormFeature()
    }

    await store.send(.set(\.$title, "Emma")) {
      $0.title = "Emma"
    }
    await store.send(.binding(.set(\.$author, "Jane Austen"))) {
      $0.author = "Jane Austen"
    }
    #expect(store.state.isSaveEnabled)
  }

  @Test("a complete ISBN is looked up, and the catalogue's answer fills in title and author")
  func lookUpSuccess() async {
    let info = Self.prideAndPrejudice
    let store = TestStore(initialState: BookFormFeature.State()) {
      BookFormFeature()
    } withDependencies: {
      $0.bookCatalog.lookUp = { isbn in
        #expect(isbn == "9780141439518")
        return info
      }
    }

    await store.send(.set(\.$isbn, "978-0-14-143951")) {
      $0.isbn = "978-0-14-143951"
    }
    await store.send(.set(\.$isbn, "978-0-14-143951-8")) {
      $0.isbn = "978-0-14-143951-8"
      $0.isLookingUp = true
    }
    await store.receive(.lookUpResponse(.success(Self.prideAndPrejudice))) {
      $0.isLookingUp = false
      $0.title = "Pride and Prejudice"
      $0.author = "Jane Austen"
    }
  }

  @Test("a failed look-up ends the look-up and shows why; editing the ISBN clears the message")
  func lookUpFailure() async {
    let store = TestStore(initialState: BookFormFeature.State()) {
      BookFormFeature()
    } withDependencies: {
      $0.bookCatalog.lookUp = { throw BookCatalogError.notFound(isbn: $0) }
    }

    await store.send(.set(\.$isbn, "9780000000002")) {
      $0.isbn = "9780000000002"
      $0.isLookingUp = true
    }
    await store.receive(.lookUpResponse(.failure(BookCatalogError.notFound(isbn: "9780000000002")))) {
      $0.isLookingUp = false
      $0.lookUpError = "No book with ISBN 9780000000002 is in the catalogue."
    }
    await store.send(.set(\.$isbn, "978000000000")) {
      $0.isbn = "978000000000"
      $0.lookUpError = nil
    }
  }

  @Test("the live catalogue answers from its table after 300 ms, and fails for an unknown ISBN")
  func liveCatalogue() async throws {
    let clock = TestClock()
    // Tasks inherit the overridden clock; the look-ups sleep on it.
    let (found, missing) = withDependencies {
      $0.continuousClock = clock
    } operation: {
      (
        Task { try await BookCatalogClient.liveValue.lookUp("9780141439846") },
        Task { try await BookCatalogClient.liveValue.lookUp("9780000000002") }
      )
    }
    while clock.sleeperCount < 2 { await Task.yield() }
    await clock.advance(by: .milliseconds(300))
    #expect(try await found.value == BookInfo(title: "Dracula", author: "Bram Stoker"))
    await #expect(throws: BookCatalogError.notFound(isbn: "9780000000002")) {
      try await missing.value
    }
  }

  @Test("shortening a complete ISBN while it is looked up cancels the look-up")
  func lookUpCancelled() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: BookFormFeature.State()) {
      BookFormFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.bookCatalog = .liveValue
    }

    await store.send(.set(\.$isbn, "9780141439846")) {
      $0.isbn = "9780141439846"
      $0.isLookingUp = true
    }
    await store.send(.set(\.$isbn, "978014143984")) {
      $0.isbn = "978014143984"
      $0.isLookingUp = false
    }
    // The look-up would have answered now; it was cancelled, so nothing is received.
    await clock.advance(by: .milliseconds(300))
    try await clock.checkSuspension()
  }

  @Test("the cancel button dismisses the form through @Dependency(\\.dismiss)")
  func cancelDismisses() async {
    let dismissed = LockIsolated(0)
    let store = TestStore(initialState: BookFormFeature.State(title: "Draft")) {
      BookFormFeature()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissed.withValue { $0 += 1 } }
    }

    await store.send(.cancelButtonTapped)
    await store.finish()
    #expect(dismissed.value == 1)
  }

  @Test("save makes a book with a uuid id and the date, tells the parent, then dismisses")
  func saveDelegatesAndDismisses() async {
    let dismissed = LockIsolated(0)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let store = TestStore(
      initialState: BookFormFeature.State(title: " Emma ", author: "Jane Austen", isbn: "978-0")
    ) {
      BookFormFeature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(now)
      $0.dismiss = DismissEffect { dismissed.withValue { $0 += 1 } }
    }

    await store.send(.saveButtonTapped)
    let book = Book(
      id: UUID(counting: 0), title: "Emma", author: "Jane Austen", isbn: "978-0", addedAt: now
    )
    await store.receive(.delegate(.saveBook(book)))
    await store.finish()
    #expect(dismissed.value == 1)
  }

  @Test("save does nothing without a title")
  func saveNeedsTitle() async {
    let store = TestStore(initialState: BookFormFeature.State(title: "  ", author: "Anon")) {
      BookFormFeature()
    }

    #expect(!store.state.isSaveEnabled)
    await store.send(.saveButtonTapped)
  }
}
