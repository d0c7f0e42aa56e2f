import Architecture

extension BookshelfFeature {
  /// The screens the shelf pushes on its navigation stack: a book's detail, and its notes.
  public struct Path: Reducer, Sendable {
    /// A pushed screen.
    public enum State: Equatable, Codable, Sendable {
      case detail(BookDetailFeature.State)
      case notes(NotesFeature.State)
    }

    /// A pushed screen's actions.
    public enum Action: Equatable, Codable, Sendable {
      case detail(BookDetailFeature.Action)
      case notes(NotesFeature.Action)
    }

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: /State.detail, action: /Action.detail) {
        BookDetailFeature()
      }
      Scope(state: /State.notes, action: /Action.notes) {
        NotesFeature()
      }
    }
  }
}
