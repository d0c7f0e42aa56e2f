import Architecture

/// Search-as-you-type for harbours, then tap one for its tides. Typing waits for a pause, a new
/// query cancels the old search, and a newer tap cancels an older forecast.
struct TideSearch: Reducer {
  struct State: Equatable {
    var errorMessage: String?
    var forecast: TideForecast?
    var harbors: [Harbor] = []
    var loadingHarborID: Harbor.ID?
    var query = ""
    var selectedHarborID: Harbor.ID?
  }

  enum Action: Equatable {
    case forecastResponse(Harbor.ID, TaskResult<TideForecast>)
    case harborTapped(Harbor)
    case queryChanged(String)
    case searchResponse(TaskResult<[Harbor]>)
  }

  enum CancelID { case forecast, search }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.tideClient) var tideClient

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .forecastResponse(id, .failure(error)):
        guard id == state.loadingHarborID else { return .none }
        state.loadingHarborID = nil
        state.errorMessage = error.localizedDescription
        return .none

      case let .forecastResponse(id, .success(forecast)):
        guard id == state.loadingHarborID else { return .none }
        state.loadingHarborID = nil
        state.selectedHarborID = id
        state.forecast = forecast
        return .none

      case let .harborTapped(harbor):
        state.loadingHarborID = harbor.id
        state.errorMessage = nil
        state.forecast = nil
        return .run { send in
          await send(
            .forecastResponse(
              harbor.id, TaskResult { try await self.tideClient.forecast(harbor) }
            )
          )
        }
        .cancellable(id: CancelID.forecast, cancelInFlight: true)

      case let .queryChanged(query):
        state.query = query
        guard !query.isEmpty else {
          state.harbors = []
          state.forecast = nil
          state.selectedHarborID = nil
          return .cancel(id: CancelID.search)
        }
        return .run { send in
          try await self.clock.sleep(for: .milliseconds(300))
          await send(.searchResponse(TaskResult { try await self.tideClient.search(query) }))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)

      case .searchResponse(.failure):
        state.harbors = []
        return .none

      case let .searchResponse(.success(harbors)):
        state.harbors = harbors
        return .none
      }
    }
  }
}
