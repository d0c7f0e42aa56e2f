import Architecture

/// A feature whose state has every `Codable` shape a generated test must write back as Swift:
/// sets, dictionaries with non-`String` keys, `Duration`, `Date`, `URL`, `Data`, an optional
/// struct with a `let`, an enum that changes case, nested identified arrays, and a type whose
/// `CodingKeys` rename its members. Internal, as an app's features usually are, so generated
/// tests must `@testable import` it.
struct ShapesFeature: Reducer {
  struct State: Equatable, Codable {
    var tags: Set<String> = []
    var countsByID: [UUID: Int] = [:]
    var namesByNumber: [Int: String] = [:]
    var elapsed: Duration = .zero
    var lastOpened: Date?
    var link: URL?
    var blob = Data()
    var selection: Selection?
    var mode: Mode = .idle
    var shelves: IdentifiedArrayOf<Shelf> = []
    var account = Account(displayName: "", emailAddress: "")
    /// Keyed by an enum: encoded as a flat array of keys and values, as any non-String key.
    var countsByMood: [Mood: Int] = [:]
    /// A set of structs.
    var pins: Set<Pin> = []
  }

  enum Mood: String, Equatable, Hashable, Codable {
    case calm, busy
  }

  struct Pin: Equatable, Hashable, Codable {
    var shelf: Int
    var book: Int
  }

  struct Selection: Equatable, Codable {
    let id: Int
    var note: String
  }

  enum Mode: Equatable, Codable {
    case idle
    case editing(draft: String)
    case failed(String)
  }

  struct Shelf: Equatable, Codable, Identifiable {
    var id: Int
    var books: IdentifiedArrayOf<Book> = []
  }

  struct Book: Equatable, Codable, Identifiable {
    var id: Int
    var title: String
  }

  /// Encoded under other names than its properties.
  struct Account: Equatable, Codable {
    var displayName: String
    var emailAddress: String
    enum CodingKeys: String, CodingKey {
      case displayName = "display_name"
      case emailAddress = "email"
    }
  }

  enum Action: Equatable, Codable {
    case tagAdded(String)
    case tagRemoved(String)
    case counted(UUID)
    case named(Int, String)
    case ticked
    case opened
    case linked(URL?)
    case byteAppended(UInt8)
    case selected(Int)
    case noteEdited(String)
    case deselected
    case editingStarted(String)
    case failed(String)
    case finished
    case shelfAdded(Int)
    case bookAdded(shelf: Int, book: Int, title: String)
    case bookRenamed(shelf: Int, book: Int, title: String)
    case bookRemoved(shelf: Int, book: Int)
    case accountEdited(name: String, email: String)
    case moodNoted(Mood)
    case pinned(Pin)
  }

  @Dependency(\.date.now) var now

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .tagAdded(tag): state.tags.insert(tag)
    case let .tagRemoved(tag): state.tags.remove(tag)
    case let .counted(id): state.countsByID[id, default: 0] += 1
    case let .named(number, name): state.namesByNumber[number] = name
    case .ticked: state.elapsed += .milliseconds(1500)
    case .opened: state.lastOpened = now
    case let .linked(url): state.link = url
    case let .byteAppended(byte): state.blob.append(byte)
    case let .selected(id): state.selection = Selection(id: id, note: "")
    case let .noteEdited(note): state.selection?.note = note
    case .deselected: state.selection = nil
    case let .editingStarted(draft): state.mode = .editing(draft: draft)
    case let .failed(reason): state.mode = .failed(reason)
    case .finished: state.mode = .idle
    case let .shelfAdded(id): state.shelves.append(Shelf(id: id))
    case let .bookAdded(shelf, book, title):
      state.shelves[id: shelf]?.books.append(Book(id: book, title: title))
    case let .bookRenamed(shelf, book, title):
      state.shelves[id: shelf]?.books[id: book]?.title = title
    case let .bookRemoved(shelf, book):
      state.shelves[id: shelf]?.books.remove(id: book)
    case let .accountEdited(name, email):
      state.account = Account(displayName: name, emailAddress: email)
    case let .moodNoted(mood): state.countsByMood[mood, default: 0] += 1
    case let .pinned(pin): state.pins.insert(pin)
    }
    return .none
  }
}

/// Every action above, in an order that changes each shape more than once.
let shapesSession: [ShapesFeature.Action] = [
  .tagAdded("red"), .tagAdded("blue"), .tagRemoved("red"),
  .counted(UUID(0)), .counted(UUID(0)), .counted(UUID(1)),
  .named(3, "three"), .named(10, "ten"), .named(3, "drei"),
  .ticked, .ticked,
  .opened,
  .linked(URL(string: "https://example.com/a?b=c")), .linked(nil),
  .byteAppended(0), .byteAppended(255),
  .selected(1), .noteEdited("first"), .selected(2), .noteEdited("second"), .deselected,
  .editingStarted("draft"), .editingStarted("draft 2"), .failed("offline"), .finished,
  .shelfAdded(1), .shelfAdded(2),
  .bookAdded(shelf: 1, book: 10, title: "Dune"), .bookAdded(shelf: 2, book: 20, title: "Emma"),
  .bookRenamed(shelf: 1, book: 10, title: "Dune Messiah"), .bookRemoved(shelf: 2, book: 20),
  .accountEdited(name: "Ada", email: "ada@example.com"),
  .accountEdited(name: "Ada L.", email: "ada@example.com"),
  .moodNoted(.calm), .moodNoted(.busy), .moodNoted(.calm),
  .pinned(ShapesFeature.Pin(shelf: 1, book: 10)), .pinned(ShapesFeature.Pin(shelf: 1, book: 11)),
]
