import Architecture
import Foundation

/// A book's notes, pushed on the stack above its detail: typing saves a second after the last
/// keystroke, and the done button saves and pops the screen itself.
///
/// The autosave is a debounce: each keystroke cancels the pending save and starts the wait
/// again, so a sentence typed quickly saves once.
public struct NotesFeature: Reducer, Sendable {
  /// The notes being edited, and when they were last saved.
  public struct State: Equatable, Codable, Sendable {
    public var bookID: Book.ID
    public var text: String
    /// When the notes were last saved, from `@Dependency(\.date.now)`.
    public var lastSavedAt: Date?

    public init(bookID: Book.ID, text: String = "", lastSavedAt: Date? = nil) {
      self.bookID = bookID
      self.text = text
      self.lastSavedAt = lastSavedAt
    }
  }

  /// Typing, the autosave's timer, the done button, and what the screen tells the shelf.
  public enum Action: Equatable, Codable, Sendable {
    case autosaveTimerFired
    case delegate(Delegate)
    case doneButtonTapped
    case textChanged(String)

    /// What the screen tells the shelf.
    public enum Delegate: Equatable, Codable, Sendable {
      /// The notes were saved; the shelf keeps them with the book.
      case notesSaved(bookID: Book.ID, text: String)
    }
  }

  /// How long the notes must be left alone before they save.
  public static let autosaveDelay = Duration.seconds(1)

  enum CancelID { case autosave }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .autosaveTimerFired:
        return save(&state)

      case .delegate:
        return .none

      case .doneButtonTapped:
        return .merge(
          .cancel(id: CancelID.autosave),
          save(&state),
          .run { _ in await dismiss() }
        )

      case let .textChanged(text):
        state.text = text
        return .run { send in
          try await clock.sleep(for: Self.autosaveDelay)
          await send(.autosaveTimerFired)
        }
        .cancellable(id: CancelID.autosave, cancelInFlight: true)
      }
    }
  }

  private func save(_ state: inout State) -> Effect<Action> {
    state.lastSavedAt = now
    return .send(.delegate(.notesSaved(bookID: state.bookID, text: state.text)))
  }
}
