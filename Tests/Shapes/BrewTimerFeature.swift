import Architecture

/// A coffee brew timer, a domain none of the examples has: a timer, a debounced save of the
/// brewer's notes, and a recipe fetched from a client. What the generator's effect tests
/// record: the timer and the save read only the clock, so a generated test runs them; the
/// recipe read a client, so a generated test feeds its answer in.
struct BrewTimerFeature: Reducer {
  struct State: Equatable, Codable {
    var seconds = 0
    var isBrewing = false
    var startedAt: Date?
    var notes = ""
    var savedNotes: String?
    var recipe: String?
    var isLoadingRecipe = false
  }

  enum Action: Equatable, Codable {
    case startTapped
    case stopTapped
    case tick
    case notesChanged(String)
    case notesSaved(String)
    case recipeTapped
    case recipeLoaded(String)
  }

  enum CancelID { case brew, save }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.brewRecipes) var recipes
  @Dependency(\.date.now) var now

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTapped:
      state.isBrewing = true
      state.startedAt = now
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
      .cancellable(id: CancelID.brew)

    case .stopTapped:
      state.isBrewing = false
      return .cancel(id: CancelID.brew)

    case .tick:
      state.seconds += 1
      return .none

    case let .notesChanged(notes):
      state.notes = notes
      // Saved once the brewer stops typing for half a second.
      return .run { send in
        try await clock.sleep(for: .milliseconds(500))
        await send(.notesSaved(notes))
      }
      .cancellable(id: CancelID.save, cancelInFlight: true)

    case let .notesSaved(notes):
      state.savedNotes = notes
      return .none

    case .recipeTapped:
      state.isLoadingRecipe = true
      return .run { send in await send(.recipeLoaded(await recipes.fetch())) }

    case let .recipeLoaded(recipe):
      state.recipe = recipe
      state.isLoadingRecipe = false
      return .none
    }
  }
}

/// Where recipes come from: a server, in an app.
struct BrewRecipes: Sendable {
  var fetch: @Sendable () async -> String
}

extension BrewRecipes: DependencyKey {
  static let liveValue = BrewRecipes { "V60: 15 g, 250 ml, 3 min" }
  static let testValue = BrewRecipes(fetch: unimplemented("BrewRecipes.fetch", placeholder: ""))
}

extension DependencyValues {
  var brewRecipes: BrewRecipes {
    get { self[BrewRecipes.self] }
    set { self[BrewRecipes.self] = newValue }
  }
}
