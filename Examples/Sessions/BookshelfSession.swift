import Architecture
import Bookshelf
import Foundation
import Recorder

/// A few hundred steps of the reading list: books added through the sheet (typed ISBNs looked
/// up, found and not found, typed titles, a sheet cancelled and one dismissed mid-look-up),
/// details pushed and popped with reading timers, notes typed with their debounced autosave and
/// popped by their own done button, and delete alerts answered both ways.
@MainActor
public func recordBookshelfSession(to recorder: TraceRecorder) async {
  let clock = TestClock()
  let store = Store(initialState: BookshelfFeature.State()) {
    BookshelfFeature()
      .recording(to: recorder)
  } withDependencies: {
    $0.continuousClock = clock
    $0.uuid = .incrementing
    $0.date = .ticking(from: Date(timeIntervalSince1970: 1_800_000_000))
    $0.bookCatalog = .liveValue
    // A generator of its own: the default one is shared by every store in the process, so a
    // second recording would push ids where the first left off.
    $0.stackElementID = .incrementing()
  }
  let session = BookshelfScript(driver: SessionDriver(store: store, clock: clock))

  // Books the catalogue knows, one it does not, and one typed by hand.
  await session.addBook(isbn: "978-0-14-143951-8")
  await session.addBook(isbn: "9780141441146")
  await session.addBook(isbn: "978-0-00-000000-2", title: "The Unknown Book", author: "Anon")
  await session.cancelSheet(isbn: "97801404491", title: "Crime")
  await session.dismissSheetDuringLookUp(isbn: "9780141439600")
  await session.addBook(isbn: "9780141439846")

  for (round, book) in store.books.elements.enumerated() {
    await session.read(book.id, seconds: 2 + round % 3, notes: "Chapter \(round + 1): rereading")
  }
  await session.popWhileReading(store.books.ids[1])

  // Delete: cancelled from the list, confirmed from the list, confirmed from a detail.
  await session.deleteFromList(store.books.ids[0], confirm: false)
  await session.deleteFromList(store.books.ids[2], confirm: true)
  await session.deleteFromDetail(store.books.ids[0])

  await session.addBook(isbn: "9780141439556")
  await session.addBook(isbn: "9780141439471")
  await session.read(store.books.ids.last!, seconds: 3, notes: "Letters within letters")
}

/// The session's moves, each played through the driver one action at a time.
@MainActor
private struct BookshelfScript {
  typealias Driver = SessionDriver<BookshelfFeature.State, BookshelfFeature.Action>
  let driver: Driver
  var store: Store<BookshelfFeature.State, BookshelfFeature.Action> { driver.store }

  private var form: BookFormFeature.State? {
    guard case let .addBook(form)? = store.destination else { return nil }
    return form
  }

  private func form(_ action: BookFormFeature.Action) async {
    await driver.send(.destination(.presented(.addBook(action))))
  }

  /// Types `text` into a form field one character at a time, as a keyboard would.
  private func type(
    _ text: String, into field: WritableKeyPath<BookFormFeature.State, BindingState<String>>
  ) async {
    var typed = ""
    for character in text {
      typed.append(character)
      await form(.binding(.set(field, typed)))
    }
  }

  /// Presents the sheet, types the ISBN (and waits for its look-up), types a title and author
  /// if given, and saves: the sheet dismisses itself.
  func addBook(isbn: String, title: String? = nil, author: String? = nil) async {
    await driver.send(.addBookButtonTapped)
    await type(isbn, into: \.$isbn)
    await driver.advance(by: .milliseconds(300)) { _ in self.form?.isLookingUp == false }
    if let title { await type(title, into: \.$title) }
    if let author { await type(author, into: \.$author) }
    await form(.saveButtonTapped)
  }

  /// Starts a book, then cancels the sheet, which dismisses itself.
  func cancelSheet(isbn: String, title: String) async {
    await driver.send(.addBookButtonTapped)
    await type(isbn, into: \.$isbn)
    await type(title, into: \.$title)
    await form(.cancelButtonTapped)
  }

  /// Types a complete ISBN, then swipes the sheet away before the catalogue answers: the
  /// look-up is cancelled with the sheet.
  func dismissSheetDuringLookUp(isbn: String) async {
    await driver.send(.addBookButtonTapped)
    await type(isbn, into: \.$isbn)
    await driver.send(.destination(.dismiss))
    await driver.advance(by: .milliseconds(300))
  }

  private func detail(_ action: BookDetailFeature.Action) async {
    guard let id = store.path.ids.last else { return }
    await driver.send(.path(.element(id: id, action: .detail(action))))
  }

  /// Pushes the book's detail, reads for `seconds` on the timer, opens the notes, types them
  /// with pauses that let the autosave run, closes them with done, and goes back.
  func read(_ id: Book.ID, seconds: Int, notes: String) async {
    await driver.send(.bookTapped(id: id))
    await detail(.startReadingButtonTapped)
    for _ in 0..<seconds { await driver.advance(by: .seconds(1)) }
    await detail(.stopReadingButtonTapped)
    await detail(.notesButtonTapped)
    guard let notesID = store.path.ids.last else { return }
    let pause = notes.firstIndex(of: ":") ?? notes.endIndex
    var typed = ""
    for character in notes {
      typed.append(character)
      await driver.send(.path(.element(id: notesID, action: .notes(.textChanged(typed)))))
      if typed.endIndex == pause {
        await driver.advance(by: NotesFeature.autosaveDelay)
      }
    }
    // Let the autosave run before done: done cancels a pending autosave, and the recorder
    // notes that cancellation on its own schedule, which would make the trace vary by run.
    await driver.advance(by: NotesFeature.autosaveDelay)
    await driver.send(.path(.element(id: notesID, action: .notes(.doneButtonTapped))))
    if let detailID = store.path.ids.last { await driver.send(.path(.popFrom(id: detailID))) }
  }

  /// Pushes the book's detail, starts reading and goes back while the timer runs: popping
  /// cancels it.
  func popWhileReading(_ id: Book.ID) async {
    await driver.send(.bookTapped(id: id))
    await detail(.startReadingButtonTapped)
    await driver.advance(by: .seconds(1))
    if let detailID = store.path.ids.last { await driver.send(.path(.popFrom(id: detailID))) }
    await driver.advance(by: .seconds(1))
  }

  /// Asks to delete from the list, and answers the alert.
  func deleteFromList(_ id: Book.ID, confirm: Bool) async {
    await driver.send(.deleteButtonTapped(id: id))
    await answerAlert(id, confirm: confirm)
  }

  /// Pushes the book's detail and its notes, asks to delete from the detail and confirms:
  /// the book's screens are popped.
  func deleteFromDetail(_ id: Book.ID) async {
    await driver.send(.bookTapped(id: id))
    await detail(.notesButtonTapped)
    if let detailID = store.path.ids.dropLast().last {
      await driver.send(.path(.element(id: detailID, action: .detail(.deleteButtonTapped))))
    }
    await answerAlert(id, confirm: true)
  }

  private func answerAlert(_ id: Book.ID, confirm: Bool) async {
    if confirm {
      await driver.send(.destination(.presented(.alert(.confirmDeletion(id: id)))))
    } else {
      await driver.send(.destination(.dismiss))
    }
  }
}
