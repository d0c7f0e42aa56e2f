import Architecture
import Bookshelf
import Foundation
import Testing

@MainActor
@Suite("Bookshelf: the shelf, its sheet, its alert and its stack")
struct BookshelfFeatureTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  static let dracula = Book(
    id: UUID(counting: 10), title: "Dracula", author: "Bram Stoker", addedAt: now
  )
  static let emma = Book(id: UUID(counting: 11), title: "Emma", author: "Jane Austen", addedAt: now)

  typealias Destination = BookshelfFeature.Destination
  typealias Path = BookshelfFeature.Path

  @Test("the add button presents the sheet; its cancel button dismisses it through the ifLet")
  func sheetCancel() async {
    let store = TestStore(initialState: BookshelfFeature.State()) {
      BookshelfFeature()
    }

    await store.send(.addBookButtonTapped) {
      $0.destination = .addBook(BookFormFeature.State())
    }
    await store.send(.destination(.presented(.addBook(.set(\.$title, "Emma"))))) {
      $0.$destination[case: /Destination.State.addBook]?.title = "Emma"
    }
    await store.send(.destination(.presented(.addBook(.cancelButtonTapped))))
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
    }
    #expect(store.state.books.isEmpty)
  }

  @Test("a look-up in the sheet fills the form; saving adds the book and dismisses the sheet")
  func sheetLookUpAndSave() async {
    let info = BookInfo(title: "Emma", author: "Jane Austen")
    let store = TestStore(initialState: BookshelfFeature.State()) {
      BookshelfFeature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Self.now)
      $0.bookCatalog.lookUp = { _ in info }
    }

    await store.send(.addBookButtonTapped) {
      $0.destination = .addBook(BookFormFeature.State())
    }
    await store.send(.destination(.presented(.addBook(.set(\.$isbn, "9780141439587"))))) {
      $0.$destination[case: /Destination.State.addBook]?.isbn = "9780141439587"
      $0.$destination[case: /Destination.State.addBook]?.isLookingUp = true
    }
    await store.receive(.destination(.presented(.addBook(.lookUpResponse(.success(info)))))) {
      $0.$destination[case: /Destination.State.addBook]?.isLookingUp = false
      $0.$destination[case: /Destination.State.addBook]?.title = "Emma"
      $0.$destination[case: /Destination.State.addBook]?.author = "Jane Austen"
    }
    await store.send(.destination(.presented(.addBook(.saveButtonTapped))))
    let book = Book(
      id: UUID(counting: 0), title: "Emma", author: "Jane Austen", isbn: "9780141439587",
      addedAt: Self.now
    )
    await store.receive(.destination(.presented(.addBook(.delegate(.saveBook(book)))))) {
      $0.books.append(book)
    }
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
    }
  }

  @Test("dismissing the sheet while a look-up runs cancels the look-up")
  func sheetDismissCancelsLookUp() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: BookshelfFeature.State()) {
      BookshelfFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.bookCatalog = .liveValue
    }

    await store.send(.addBookButtonTapped) {
      $0.destination = .addBook(BookFormFeature.State())
    }
    await store.send(.destination(.presented(.addBook(.set(\.$isbn, "9780141439846"))))) {
      $0.$destination[case: /Destination.State.addBook]?.isbn = "9780141439846"
      $0.$destination[case: /Destination.State.addBook]?.isLookingUp = true
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
    await clock.advance(by: .seconds(1))
    try await clock.checkSuspension()
  }

  @Test("delete asks first: the alert's destructive button removes the book and clears the alert")
  func alertConfirm() async {
    let store = TestStore(initialState: BookshelfFeature.State(books: [Self.dracula, Self.emma])) {
      BookshelfFeature()
    }

    await store.send(.deleteButtonTapped(id: Self.dracula.id)) {
      $0.destination = .alert(.deleteBook(Self.dracula))
    }
    guard case let .alert(alert)? = store.state.destination else {
      Issue.record("no alert")
      return
    }
    #expect(alert.buttons.first?.role == .destructive)
    await store.send(.destination(.presented(.alert(.confirmDeletion(id: Self.dracula.id))))) {
      $0.books.remove(id: Self.dracula.id)
      $0.destination = nil
    }
  }

  @Test("the alert's cancel button dismisses it and keeps the book")
  func alertCancel() async {
    let store = TestStore(initialState: BookshelfFeature.State(books: [Self.dracula])) {
      BookshelfFeature()
    }

    await store.send(.deleteButtonTapped(id: Self.dracula.id)) {
      $0.destination = .alert(.deleteBook(Self.dracula))
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
    #expect(store.state.books.ids == [Self.dracula.id])
  }

  @Test("tapping a book pushes its detail; the back button pops it")
  func pushAndPop() async {
    let store = TestStore(initialState: BookshelfFeature.State(books: [Self.dracula])) {
      BookshelfFeature()
    }

    await store.send(.bookTapped(id: Self.dracula.id)) {
      $0.path.append(.detail(BookDetailFeature.State(book: Self.dracula)))
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path.removeAll()
    }
  }

  @Test("the detail pushes notes; notes save into the shelf and the detail, then pop themselves")
  func notesSelfPop() async {
    let clock = TestClock()
    let store = TestStore(initialState: BookshelfFeature.State(books: [Self.dracula])) {
      BookshelfFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(Self.now)
    }

    await store.send(.bookTapped(id: Self.dracula.id)) {
      $0.path.append(.detail(BookDetailFeature.State(book: Self.dracula)))
    }
    await store.send(.path(.element(id: 0, action: .detail(.notesButtonTapped)))) {
      $0.path.append(.notes(NotesFeature.State(bookID: Self.dracula.id)))
    }
    await store.send(.path(.element(id: 1, action: .notes(.textChanged("Letters"))))) {
      $0.path[id: 1, case: /Path.State.notes]?.text = "Letters"
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 1, action: .notes(.autosaveTimerFired)))) {
      $0.path[id: 1, case: /Path.State.notes]?.lastSavedAt = Self.now
    }
    let saved = NotesFeature.Action.Delegate.notesSaved(bookID: Self.dracula.id, text: "Letters")
    await store.receive(.path(.element(id: 1, action: .notes(.delegate(saved))))) {
      $0.books[id: Self.dracula.id]?.notes = "Letters"
      $0.path[id: 0, case: /Path.State.detail]?.book.notes = "Letters"
    }
    await store.send(.path(.element(id: 1, action: .notes(.doneButtonTapped))))
    await store.receive(.path(.element(id: 1, action: .notes(.delegate(saved)))))
    await store.receive(.path(.popFrom(id: 1))) {
      $0.path.pop(from: 1)
    }
    #expect(store.state.path.count == 1)
  }

  @Test("a reading session's time reaches the shelf; popping the detail mid-session stops the timer")
  func readingTimeAndPopCancels() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: BookshelfFeature.State(books: [Self.dracula])) {
      BookshelfFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(Self.now)
    }

    await store.send(.bookTapped(id: Self.dracula.id)) {
      $0.path.append(.detail(BookDetailFeature.State(book: Self.dracula)))
    }
    await store.send(.path(.element(id: 0, action: .detail(.startReadingButtonTapped)))) {
      $0.path[id: 0, case: /Path.State.detail]?.isReading = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .detail(.timerTicked)))) {
      $0.path[id: 0, case: /Path.State.detail]?.sessionSeconds = 1
      $0.path[id: 0, case: /Path.State.detail]?.book.secondsRead = 1
    }
    var read = Self.dracula
    read.secondsRead = 1
    read.lastReadAt = Self.now
    await store.send(.path(.element(id: 0, action: .detail(.stopReadingButtonTapped)))) {
      $0.path[id: 0, case: /Path.State.detail]?.isReading = false
      $0.path[id: 0, case: /Path.State.detail]?.book = read
      $0.books[id: read.id] = read
    }

    await store.send(.path(.element(id: 0, action: .detail(.startReadingButtonTapped)))) {
      $0.path[id: 0, case: /Path.State.detail]?.isReading = true
      $0.path[id: 0, case: /Path.State.detail]?.sessionSeconds = 0
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path.removeAll()
    }
    // The popped screen's timer was cancelled: no tick arrives for a screen that is gone.
    await clock.advance(by: .seconds(3))
    try await clock.checkSuspension()
  }

  @Test("deleting from the detail shows the alert; confirming pops the book's screens")
  func deleteFromDetail() async {
    let store = TestStore(initialState: BookshelfFeature.State(books: [Self.dracula, Self.emma])) {
      BookshelfFeature()
    }

    await store.send(.bookTapped(id: Self.emma.id)) {
      $0.path.append(.detail(BookDetailFeature.State(book: Self.emma)))
    }
    await store.send(.bookTapped(id: Self.dracula.id)) {
      $0.path.append(.detail(BookDetailFeature.State(book: Self.dracula)))
    }
    await store.send(.path(.element(id: 1, action: .detail(.notesButtonTapped)))) {
      $0.path.append(.notes(NotesFeature.State(bookID: Self.dracula.id)))
    }
    await store.send(.path(.element(id: 1, action: .detail(.deleteButtonTapped)))) {
      $0.destination = .alert(.deleteBook(Self.dracula))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(id: Self.dracula.id))))) {
      $0.books.remove(id: Self.dracula.id)
      $0.path.pop(from: 1)
      $0.destination = nil
    }
    #expect(store.state.path.ids == [0])
  }

  @Test("State and Action round-trip through Codable, as the recorder needs")
  func codable() throws {
    var state = BookshelfFeature.State(books: [Self.dracula])
    state.destination = .alert(.deleteBook(Self.dracula))
    state.path.append(.detail(BookDetailFeature.State(book: Self.dracula)))
    let decodedState = try JSONDecoder().decode(
      BookshelfFeature.State.self, from: JSONEncoder().encode(state)
    )
    #expect(decodedState.books == state.books)
    #expect(decodedState.destination == state.destination)
    #expect(Array(decodedState.path) == Array(state.path))

    let actions: [BookshelfFeature.Action] = [
      .path(.element(id: 3, action: .notes(.textChanged("x")))),
      .destination(.presented(.alert(.confirmDeletion(id: Self.dracula.id)))),
      .destination(.presented(.addBook(.lookUpResponse(.success(BookInfo(title: "a", author: "b")))))),
      .path(.push(id: 4, state: .detail(BookDetailFeature.State(book: Self.emma)))),
    ]
    for action in actions {
      let decoded = try JSONDecoder().decode(
        BookshelfFeature.Action.self, from: JSONEncoder().encode(action)
      )
      #expect(decoded == action)
    }
  }
}
