import Architecture

extension BookshelfFeature {
  /// What the shelf presents over itself: the add-book sheet, or the delete confirmation.
  ///
  /// One optional destination rather than one optional per screen, so the shelf can never show
  /// the sheet and the alert at once.
  public struct Destination: Reducer, Sendable {
    /// The presented screen.
    public enum State: Equatable, Codable, Sendable {
      case addBook(BookFormFeature.State)
      case alert(AlertState<Action.Alert>)
    }

    /// The presented screen's actions.
    public enum Action: Equatable, Codable, Sendable {
      case addBook(BookFormFeature.Action)
      case alert(Alert)

      /// The delete confirmation's buttons; its cancel button only dismisses.
      public enum Alert: Equatable, Codable, Sendable {
        case confirmDeletion(id: Book.ID)
      }
    }

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: /State.addBook, action: /Action.addBook) {
        BookFormFeature()
      }
    }
  }
}

extension AlertState where Action == BookshelfFeature.Destination.Action.Alert {
  /// Asks whether to delete `book`, with a destructive delete button and a cancel button.
  public static func deleteBook(_ book: Book) -> Self {
    AlertState {
      TextState("Delete “\(book.title)”?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(id: book.id)) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState("The book, its reading time and its notes leave the shelf.")
    }
  }
}
