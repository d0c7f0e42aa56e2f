import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Tide search")
struct TideSearchTests {
  let whitby = Harbor(id: 4, name: "Whitby", region: "Yorkshire")
  let portree = Harbor(id: 3, name: "Portree", region: "Skye")

  @Test("typing searches once, for the last query, after a pause")
  func debouncedSearch() async {
    let clock = TestClock()
    let queries = LockIsolated<[String]>([])
    let store = TestStore(initialState: TideSearch.State()) {
      TideSearch()
    } withDependencies: { [whitby] in
      $0.continuousClock = clock
      $0.tideClient.search = { query in
        queries.withValue { $0.append(query) }
        return [whitby]
      }
    }

    await store.send(.queryChanged("W")) {
      $0.query = "W"
    }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("Wh")) {
      $0.query = "Wh"
    }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchResponse(.success([whitby]))) {
      $0.harbors = [whitby]
    }
    #expect(queries.value == ["Wh"])
  }

  @Test("a failed forecast shows the error's description")
  func forecastFailure() async {
    let store = TestStore(initialState: TideSearch.State(harbors: [portree])) {
      TideSearch()
    } withDependencies: {
      $0.tideClient.forecast = { throw TideServiceError(harbor: $0.name) }
    }

    await store.send(.harborTapped(portree)) {
      $0.loadingHarborID = 3
    }
    await store.receive(.forecastResponse(3, .failure(TideServiceError(harbor: "Portree")))) {
      $0.loadingHarborID = nil
      $0.errorMessage = "No tide gauge reports from Portree."
    }
  }

  @Test("a forecast is shown for the harbour tapped")
  func forecast() async {
    let forecast = TideForecast(highWater: 5.1, lowWater: 0.4)
    let store = TestStore(initialState: TideSearch.State(harbors: [whitby])) {
      TideSearch()
    } withDependencies: {
      $0.tideClient.forecast = { _ in forecast }
    }

    await store.send(.harborTapped(whitby)) {
      $0.loadingHarborID = 4
    }
    await store.receive(.forecastResponse(4, .success(forecast))) {
      $0.loadingHarborID = nil
      $0.selectedHarborID = 4
      $0.forecast = forecast
    }
  }

  @Test("clearing the query cancels the pending search and clears the results")
  func clearCancels() async {
    let clock = TestClock()
    let store = TestStore(initialState: TideSearch.State(harbors: [whitby])) {
      TideSearch()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.queryChanged("Wh")) {
      $0.query = "Wh"
    }
    await store.send(.queryChanged("")) {
      $0.query = ""
      $0.harbors = []
    }
    await clock.advance(by: .seconds(1))
  }
}
