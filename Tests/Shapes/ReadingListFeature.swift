import Architecture

/// A feature whose values a generated test must write as Swift, never decoding them: a state
/// with a custom `init` (so no memberwise one), `let` members, nested structs, enums with
/// payloads, an empty struct, an alert whose action enum is empty, a navigation stack, and a
/// reducer built with an init parameter. Its types are `Codable` only so that this build can
/// record them; the generated test must not rely on it.
struct ReadingListFeature: Reducer {
  struct State: Equatable, Codable {
    var books: IdentifiedArrayOf<Book>
    var alert: AlertState<Alert>?
    var path: StackState<Path>
    var settings: Settings
    var favourites: [UUID] = []

    init() {
      books = []
      path = StackState()
      settings = Settings()
    }
  }

  struct Book: Equatable, Codable, Identifiable {
    let id: UUID
    var title: String
    var edition: Edition?
    var status: Status = .shelved
  }

  struct Edition: Equatable, Codable {
    let year: Int
    var publisher: Publisher
  }

  struct Publisher: Equatable, Codable {
    var name: String
    var city: String?
  }

  enum Status: Equatable, Codable {
    case shelved
    case reading(page: Int)
    case lent(to: String, pages: [Int])
  }

  /// An empty struct, encoded as `{}`.
  struct Settings: Equatable, Codable {}

  /// No alert button sends anything. Swift synthesizes no `Codable` for an empty enum.
  enum Alert: Equatable, Codable {
    init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no cases"))
    }
    func encode(to encoder: any Encoder) throws {}
  }

  enum Path: Equatable, Codable {
    case detail(Detail)
    case author(name: String)
  }

  /// Property wrappers: a memberwise initializer takes them by their wrapped names and values.
  struct Detail: Equatable, Codable {
    let bookID: UUID
    @BindingState var title: String
    @PresentationState var publisher: Publisher?
  }

  enum Action: Equatable, Codable {
    case bookAdded(title: String)
    case editionSet(year: Int, publisher: String, city: String?)
    case statusChanged(Status)
    case removeTapped
    case alertDismissed
    case detailPushed
    case authorPushed(String)
    case popped
    case favouriteChecked
  }

  /// The init parameter `gen-test` cannot supply: which titles are favourites.
  let isFavourite: @Sendable (String) -> Bool

  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .bookAdded(title):
      state.books.append(Book(id: uuid(), title: title))
    case let .editionSet(year, publisher, city):
      guard let id = state.books.last?.id else { return .none }
      state.books[id: id]?.edition = Edition(
        year: year, publisher: Publisher(name: publisher, city: city))
    case let .statusChanged(status):
      guard let id = state.books.last?.id else { return .none }
      state.books[id: id]?.status = status
    case .removeTapped:
      state.alert = AlertState {
        TextState("Books cannot be removed yet")
      } actions: {
        ButtonState(role: .cancel) { TextState("OK") }
      } message: {
        TextState("Try again later.")
      }
    case .alertDismissed:
      state.alert = nil
    case .detailPushed:
      guard let book = state.books.last else { return .none }
      state.path.append(
        .detail(Detail(bookID: book.id, title: book.title, publisher: book.edition?.publisher)))
    case let .authorPushed(name):
      state.path.append(.author(name: name))
    case .popped:
      state.path.removeLast()
    case .favouriteChecked:
      state.favourites = state.books.filter { isFavourite($0.title) }.map(\.id)
    }
    return .none
  }
}

/// Every action above, in an order that changes each shape.
let readingListSession: [ReadingListFeature.Action] = [
  .bookAdded(title: "Dune"), .bookAdded(title: "Emma"),
  .editionSet(year: 1965, publisher: "Chilton", city: "Philadelphia"),
  .statusChanged(.reading(page: 12)), .statusChanged(.lent(to: "Ada", pages: [1, 2])),
  .removeTapped, .alertDismissed, .removeTapped,
  .detailPushed, .authorPushed("Austen"), .popped, .detailPushed,
  .favouriteChecked,
  .editionSet(year: 1816, publisher: "John Murray", city: nil),
]

/// A feature recorded away from its defaults, with no `init()` (a `let` without a default):
/// its tests start from its memberwise initializer, and its stack from its recorded ids.
struct ShelfBrowserFeature: Reducer {
  struct State: Equatable, Codable {
    let owner: String
    var path: StackState<ReadingListFeature.Path>
    var selection: ReadingListFeature.Book?
  }

  enum Action: Equatable, Codable {
    case authorPushed(String)
    case popped
    case deselected
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .authorPushed(name): state.path.append(.author(name: name))
    case .popped: state.path.removeLast()
    case .deselected: state.selection = nil
    }
    return .none
  }
}

/// A shelf browser's state away from its defaults; its stack numbers its screens from the
/// current `stackElementID`.
func shelfBrowserStart() -> ShelfBrowserFeature.State {
  ShelfBrowserFeature.State(
    owner: "Ada",
    path: StackState([.author(name: "Austen"), .author(name: "Brontë")]),
    selection: ReadingListFeature.Book(id: UUID(3), title: "Emma", status: .reading(page: 4))
  )
}

/// Actions that change the shelf browser's stack and selection.
let shelfBrowserSession: [ShelfBrowserFeature.Action] = [
  .popped, .authorPushed("Eliot"), .deselected,
]
