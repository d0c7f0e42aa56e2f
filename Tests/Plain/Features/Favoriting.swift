import Architecture

/// Why the server refused to change a favorite.
struct FavoriteError: LocalizedError, Equatable {
  var errorDescription: String? { "Favoriting is unavailable while you are offline." }
}

/// A reusable favorite toggle for anything with an id: flips at once, asks `favorite` to agree,
/// and flips back with an alert (in the error's words) if it does not.
struct Favoriting<ID: Hashable & Sendable>: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    let id: ID
    var isFavorite: Bool
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case buttonTapped
    case response(TaskResult<Bool>)

    enum Alert: Equatable {}
  }

  struct CancelID: Hashable {
    let id: AnyHashable
  }

  let favorite: @Sendable (ID, Bool) async throws -> Bool

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert:
        return .none

      case .buttonTapped:
        state.isFavorite.toggle()
        return .run { [id = state.id, isFavorite = state.isFavorite] send in
          await send(.response(TaskResult { try await self.favorite(id, isFavorite) }))
        }
        .cancellable(id: CancelID(id: state.id), cancelInFlight: true)

      case let .response(.failure(error)):
        state.alert = AlertState { TextState(error.localizedDescription) }
        state.isFavorite.toggle()
        return .none

      case let .response(.success(isFavorite)):
        state.isFavorite = isFavorite
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
  }
}
