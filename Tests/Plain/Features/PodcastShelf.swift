import Architecture

/// One podcast episode on the shelf, with its favorite toggle.
struct Episode: Reducer {
  struct State: Equatable, Identifiable {
    var alert: AlertState<Favoriting<ID>.Action.Alert>?
    let id: UUID
    var isFavorite: Bool
    let title: String

    var favorite: Favoriting<ID>.State {
      get { Favoriting.State(alert: alert, id: id, isFavorite: isFavorite) }
      set { (alert, isFavorite) = (newValue.alert, newValue.isFavorite) }
    }
  }

  enum Action: Equatable {
    case favorite(Favoriting<State.ID>.Action)
  }

  let favorite: @Sendable (UUID, Bool) async throws -> Bool

  var body: some ReducerOf<Self> {
    Scope(state: \.favorite, action: /Action.favorite) {
      Favoriting(favorite: self.favorite)
    }
  }
}

/// A shelf of episodes to favorite; the server call is handed in, so the shelf is built with
/// `PodcastShelf(favorite:)` rather than `PodcastShelf()`.
struct PodcastShelf: Reducer {
  struct State: Equatable {
    var episodes: IdentifiedArrayOf<Episode.State> = []
    var showsFavoritesOnly = false

    var favoriteCount: Int { episodes.filter(\.isFavorite).count }
  }

  enum Action: Equatable {
    case episode(id: Episode.State.ID, action: Episode.Action)
    case favoritesOnlyToggled
  }

  let favorite: @Sendable (UUID, Bool) async throws -> Bool

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .episode:
        return .none

      case .favoritesOnlyToggled:
        state.showsFavoritesOnly.toggle()
        return .none
      }
    }
    .forEach(\.episodes, action: /Action.episode(id:action:)) {
      Episode(favorite: self.favorite)
    }
  }
}

extension PodcastShelf {
  /// The server's answer; offline one time in three, as the case study's is.
  @Sendable static func favoriteOnServer(id: UUID, isFavorite: Bool) async throws -> Bool {
    @Dependency(\.continuousClock) var clock
    try await clock.sleep(for: .seconds(1))
    @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
    let offline = withRandomNumberGenerator { $0.next() % 3 == 0 }
    if offline { throw FavoriteError() }
    return isFavorite
  }
}
