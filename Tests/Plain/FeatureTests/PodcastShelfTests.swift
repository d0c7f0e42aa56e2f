import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Podcast shelf")
struct PodcastShelfTests {
  let episode = Episode.State(id: UUID(1), isFavorite: false, title: "Owls")

  @Test("favoriting flips at once and keeps the server's answer")
  func favorite() async {
    let store = TestStore(initialState: PodcastShelf.State(episodes: [episode])) {
      PodcastShelf(favorite: { _, isFavorite in isFavorite })
    }

    await store.send(.episode(id: UUID(1), action: .favorite(.buttonTapped))) {
      $0.episodes[id: UUID(1)]?.isFavorite = true
    }
    await store.receive(.episode(id: UUID(1), action: .favorite(.response(.success(true)))))
  }

  @Test("a failure flips back and shows the error's description in an alert")
  func failure() async {
    let store = TestStore(initialState: PodcastShelf.State(episodes: [episode])) {
      PodcastShelf(favorite: { _, _ in throw FavoriteError() })
    }

    await store.send(.episode(id: UUID(1), action: .favorite(.buttonTapped))) {
      $0.episodes[id: UUID(1)]?.isFavorite = true
    }
    await store.receive(
      .episode(id: UUID(1), action: .favorite(.response(.failure(FavoriteError()))))
    ) {
      $0.episodes[id: UUID(1)]?.alert = AlertState {
        TextState("Favoriting is unavailable while you are offline.")
      }
      $0.episodes[id: UUID(1)]?.isFavorite = false
    }
    await store.send(.episode(id: UUID(1), action: .favorite(.alert(.dismiss)))) {
      $0.episodes[id: UUID(1)]?.alert = nil
    }
  }

  @Test("the server call sleeps on the clock and fails when the generator says offline")
  func serverCall() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: PodcastShelf.State(episodes: [episode])) {
      PodcastShelf(favorite: PodcastShelf.favoriteOnServer)
    } withDependencies: {
      $0.continuousClock = clock
      // 0 % 3 == 0: offline.
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(ZeroGenerator())
    }

    await store.send(.episode(id: UUID(1), action: .favorite(.buttonTapped))) {
      $0.episodes[id: UUID(1)]?.isFavorite = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(
      .episode(id: UUID(1), action: .favorite(.response(.failure(FavoriteError()))))
    ) {
      $0.episodes[id: UUID(1)]?.alert = AlertState {
        TextState("Favoriting is unavailable while you are offline.")
      }
      $0.episodes[id: UUID(1)]?.isFavorite = false
    }
  }

  @Test("the favorites filter toggles")
  func filter() async {
    let store = TestStore(initialState: PodcastShelf.State()) {
      PodcastShelf(favorite: { _, isFavorite in isFavorite })
    }

    await store.send(.favoritesOnlyToggled) {
      $0.showsFavoritesOnly = true
    }
  }
}

/// Always answers 0.
private struct ZeroGenerator: RandomNumberGenerator, Sendable {
  mutating func next() -> UInt64 { 0 }
}
