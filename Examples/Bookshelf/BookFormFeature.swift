import Architecture
import Foundation

/// The sheet that adds a book: a form of bindings whose ISBN field looks the book up in the
/// catalogue, and whose cancel and save buttons dismiss the sheet themselves.
///
/// It shows what a recorder must follow in a form: every keystroke is a binding action, one
/// field starts a request that the next keystroke cancels, and the request can fail.
public struct BookFormFeature: Reducer, Sendable {
  /// The fields being edited, and how the catalogue look-up is going.
  public struct State: Equatable, Codable, Sendable {
    @BindingState public var title: String
    @BindingState public var author: String
    /// The ISBN as typed; hyphens and spaces are allowed. A full 13-digit ISBN is looked up.
    @BindingState public var isbn: String
    public var isLookingUp: Bool
    /// Why the last look-up failed, until the ISBN changes.
    public var lookUpError: String?

    public init(
      title: String = "",
      author: String = "",
      isbn: String = "",
      isLookingUp: Bool = false,
      lookUpError: String? = nil
    ) {
      self.title = title
      self.author = author
      self.isbn = isbn
      self.isLookingUp = isLookingUp
      self.lookUpError = lookUpError
    }

    /// Whether the save button is enabled: a book needs a title.
    public var isSaveEnabled: Bool {
      !title.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// The ISBN's digits, once it has all 13 of them; `nil` before.
    public var completeISBN: String? {
      let digits = isbn.filter(\.isNumber)
      return digits.count == 13 ? digits : nil
    }
  }

  /// The form's fields and buttons, the look-up's response, and what it tells its parent.
  public enum Action: BindableAction, Equatable, Codable, Sendable {
    case binding(BindingAction<State>)
    case cancelButtonTapped
    case delegate(Delegate)
    case lookUpResponse(TaskResult<BookInfo>)
    case saveButtonTapped

    /// What the form asks of the feature that presented it.
    public enum Delegate: Equatable, Codable, Sendable {
      /// The user saved this new book; the sheet dismisses itself right after.
      case saveBook(Book)
    }
  }

  enum CancelID { case lookUp }

  @Dependency(\.bookCatalog) var catalog
  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.$isbn):
        state.lookUpError = nil
        guard let isbn = state.completeISBN else {
          // An incomplete ISBN: whatever was being looked up is no longer wanted.
          state.isLookingUp = false
          return .cancel(id: CancelID.lookUp)
        }
        state.isLookingUp = true
        return .run { send in
          await send(.lookUpResponse(TaskResult { try await catalog.lookUp(isbn) }))
        }
        .cancellable(id: CancelID.lookUp, cancelInFlight: true)

      case .binding:
        return .none

      case .cancelButtonTapped:
        return .run { _ in await dismiss() }

      case .delegate:
        return .none

      case let .lookUpResponse(.success(info)):
        state.isLookingUp = false
        state.title = info.title
        state.author = info.author
        return .none

      case let .lookUpResponse(.failure(error)):
        state.isLookingUp = false
        state.lookUpError = String(describing: error)
        return .none

      case .saveButtonTapped:
        guard state.isSaveEnabled else { return .none }
        let book = Book(
          id: uuid(),
          title: state.title.trimmingCharacters(in: .whitespaces),
          author: state.author.trimmingCharacters(in: .whitespaces),
          isbn: state.completeISBN ?? state.isbn,
          addedAt: now
        )
        return .merge(
          .cancel(id: CancelID.lookUp),
          .run { send in
            await send(.delegate(.saveBook(book)))
            await dismiss()
          }
        )
      }
    }
  }
}
