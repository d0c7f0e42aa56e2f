import Architecture
import Foundation

/// A reading list built the way TCA 1.x apps are: a sheet and an alert presented from one
/// optional destination, and a navigation stack of book details and notes.
///
/// It is the example of a real navigation tree: effects started by a presented form end when the
/// sheet is dismissed, a pushed screen's timer ends when it is popped, and children talk to the
/// shelf through delegate actions.
public struct BookshelfFeature: Reducer, Sendable {
  /// The books, what is presented over them, and what is pushed on the stack.
  public struct State: Equatable, Codable, Sendable {
    public var books: IdentifiedArrayOf<Book>
    /// The sheet or alert shown over the shelf; `nil` when none is.
    @PresentationState public var destination: Destination.State?
    /// The screens pushed on the navigation stack, bottom first.
    public var path: StackState<Path.State>

    public init(
      books: IdentifiedArrayOf<Book> = [],
      destination: Destination.State? = nil,
      path: StackState<Path.State> = StackState()
    ) {
      self.books = books
      self.destination = destination
      self.path = path
    }
  }

  /// The shelf's buttons, and the actions of what it presents and pushes.
  public enum Action: Equatable, Codable, Sendable {
    case addBookButtonTapped
    case bookTapped(id: Book.ID)
    case deleteButtonTapped(id: Book.ID)
    case destination(PresentationAction<Destination.Action>)
    case path(StackAction<Path.State, Path.Action>)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addBookButtonTapped:
        state.destination = .addBook(BookFormFeature.State())
        return .none

      case let .bookTapped(id):
        guard let book = state.books[id: id] else { return .none }
        state.path.append(.detail(BookDetailFeature.State(book: book)))
        return .none

      case let .deleteButtonTapped(id):
        guard let book = state.books[id: id] else { return .none }
        state.destination = .alert(.deleteBook(book))
        return .none

      case let .destination(.presented(.addBook(.delegate(.saveBook(book))))):
        state.books.append(book)
        return .none

      case let .destination(.presented(.alert(.confirmDeletion(id)))):
        state.books.remove(id: id)
        // Pop every screen about the deleted book, and whatever is above them.
        if let first = state.path.ids.first(where: { state.path[id: $0]?.bookID == id }) {
          state.path.pop(from: first)
        }
        return .none

      case .destination:
        return .none

      case let .path(.element(id: id, action: .detail(.deleteButtonTapped))):
        guard case let .detail(detail)? = state.path[id: id] else { return .none }
        state.destination = .alert(.deleteBook(detail.book))
        return .none

      case let .path(.element(id: id, action: .detail(.notesButtonTapped))):
        guard case let .detail(detail)? = state.path[id: id] else { return .none }
        state.path.append(.notes(NotesFeature.State(bookID: detail.book.id, text: detail.book.notes)))
        return .none

      case let .path(.element(id: id, action: .detail(.stopReadingButtonTapped))):
        // The detail has run first (forEach runs the element, then this reducer): keep its book.
        // Setting an id the shelf lost would add the book back: only update what is there.
        guard
          case let .detail(detail)? = state.path[id: id], state.books[id: detail.book.id] != nil
        else { return .none }
        state.books[id: detail.book.id] = detail.book
        return .none

      case let .path(.element(id: _, action: .notes(.delegate(.notesSaved(bookID, text))))):
        state.books[id: bookID]?.notes = text
        // The detail below the notes shows them too.
        for id in state.path.ids {
          if case var .detail(detail)? = state.path[id: id], detail.book.id == bookID {
            detail.book.notes = text
            state.path[id: id] = .detail(detail)
          }
        }
        return .none

      case .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: /Action.destination) {
      Destination()
    }
    .forEach(\.path, action: /Action.path) {
      Path()
    }
  }
}

extension BookshelfFeature.Path.State {
  /// The book this screen is about.
  public var bookID: Book.ID {
    switch self {
    case let .detail(detail): detail.book.id
    case let .notes(notes): notes.bookID
    }
  }
}
