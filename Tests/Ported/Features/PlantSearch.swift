import Architecture

/// Search-as-you-type over the plant catalogue: waits for a pause in typing, keeps only the
/// latest request alive, and drops results for queries too short to mean anything.
struct PlantSearch: Reducer {
  struct State: Equatable {
    var errorMessage: String?
    var isSearching = false
    var query = ""
    var results: [Plant] = []
  }

  enum Action: Equatable {
    case clearButtonTapped
    case queryChanged(String)
    case searchResponse(TaskResult<[Plant]>)
  }

  enum CancelID { case search }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.plantClient) var plantClient

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .clearButtonTapped:
        state.query = ""
        state.results = []
        state.isSearching = false
        state.errorMessage = nil
        return .cancel(id: CancelID.search)

      case let .queryChanged(query):
        state.query = query
        state.errorMessage = nil
        guard query.count >= 2 else {
          state.results = []
          state.isSearching = false
          return .cancel(id: CancelID.search)
        }
        state.isSearching = true
        return .run { send in
          try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
            try await self.clock.sleep(for: .milliseconds(300))
            await send(
              .searchResponse(TaskResult { try await self.plantClient.search(query) }),
              animation: .default
            )
          }
        }

      case .searchResponse(.failure):
        state.isSearching = false
        state.errorMessage = "The catalogue is unavailable right now."
        return .none

      case let .searchResponse(.success(plants)):
        state.isSearching = false
        state.results = plants
        return .none
      }
    }
  }
}
