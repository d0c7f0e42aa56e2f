import Architecture

/// Favorites episodes through the server (some requests fail while "offline" and flip back
/// with an alert), taps one twice before the server answers, and filters to favorites.
enum PodcastShelfSession: PlainSession {
  static let name = "Podcast shelf"

  static func makeReducer() -> PodcastShelf {
    PodcastShelf(favorite: PodcastShelf.favoriteOnServer)
  }

  static func makeInitialState() -> PodcastShelf.State {
    PodcastShelf.State(
      episodes: [
        Episode.State(id: UUID(1), isFavorite: false, title: "The long migration"),
        Episode.State(id: UUID(2), isFavorite: true, title: "Mosses of the north"),
        Episode.State(id: UUID(3), isFavorite: false, title: "Tides and the moon"),
        Episode.State(id: UUID(4), isFavorite: false, title: "A year of owls"),
      ]
    )
  }

  static func prepareDependencies(_ dependencies: inout DependencyValues) {
    dependencies.withRandomNumberGenerator = WithRandomNumberGenerator(SessionGenerator(seed: 11))
  }

  static func drive(_ driver: PlainDriver<PodcastShelf.State, PodcastShelf.Action>) async {
    for id in driver.state.episodes.ids {
      await favorite(id, driver)
    }
    // A second tap before the server answers cancels the first request.
    let first = UUID(1)
    await driver.send(.episode(id: first, action: .favorite(.buttonTapped)))
    await driver.advance(by: .milliseconds(500))
    await driver.send(.episode(id: first, action: .favorite(.buttonTapped)))
    await driver.advance(by: .seconds(1))
    await driver.send(.favoritesOnlyToggled)
    for id in driver.state.episodes.ids.reversed() {
      await favorite(id, driver)
    }
    await driver.send(.favoritesOnlyToggled)
  }

  /// Taps the episode's favorite button, waits for the server, and dismisses a failure's alert.
  private static func favorite(
    _ id: UUID, _ driver: PlainDriver<PodcastShelf.State, PodcastShelf.Action>
  ) async {
    await driver.send(.episode(id: id, action: .favorite(.buttonTapped)))
    await driver.advance(by: .seconds(1))
    if driver.state.episodes[id: id]?.alert != nil {
      await driver.send(.episode(id: id, action: .favorite(.alert(.dismiss))))
    }
  }
}

/// A small seeded generator (SplitMix64), so the "offline" answers repeat run to run.
struct SessionGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) { self.state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
