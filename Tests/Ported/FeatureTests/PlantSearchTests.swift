import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class PlantSearchTests: XCTestCase {
  let fern = Plant(id: 1, commonName: "Maidenhair fern", latinName: "Adiantum capillus-veneris")
  let rosemary = Plant(id: 2, commonName: "Rosemary", latinName: "Salvia rosmarinus")

  func testSearchRunsAfterTypingPauses() async {
    let clock = TestClock()
    let store = TestStore(initialState: PlantSearch.State()) {
      PlantSearch()
    } withDependencies: { [fern] in
      $0.continuousClock = clock
      $0.plantClient.search = { _ in [fern] }
    }

    await store.send(.queryChanged("fe")) {
      $0.query = "fe"
      $0.isSearching = true
    }
    await clock.advance(by: .milliseconds(299))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.searchResponse(.success([self.fern]))) {
      $0.isSearching = false
      $0.results = [self.fern]
    }
  }

  func testTypingQuicklySearchesOnlyForTheLastQuery() async {
    let clock = TestClock()
    let queries = LockIsolated<[String]>([])
    let store = TestStore(initialState: PlantSearch.State()) {
      PlantSearch()
    } withDependencies: { [rosemary] in
      $0.continuousClock = clock
      $0.plantClient.search = { query in
        queries.withValue { $0.append(query) }
        return [rosemary]
      }
    }

    await store.send(.queryChanged("ro")) {
      $0.query = "ro"
      $0.isSearching = true
    }
    await clock.advance(by: .milliseconds(100))
    await store.send(.queryChanged("ros")) {
      $0.query = "ros"
    }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchResponse(.success([self.rosemary]))) {
      $0.isSearching = false
      $0.results = [self.rosemary]
    }
    XCTAssertEqual(queries.value, ["ros"])
  }

  func testShortQueryCancelsThePendingSearch() async {
    let clock = TestClock()
    let store = TestStore(initialState: PlantSearch.State()) {
      PlantSearch()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.queryChanged("fe")) {
      $0.query = "fe"
      $0.isSearching = true
    }
    await store.send(.queryChanged("f")) {
      $0.query = "f"
      $0.isSearching = false
    }
    await clock.run()
  }

  func testFailedSearchShowsAnError() async {
    struct CatalogueDown: Error, Equatable {}
    let clock = TestClock()
    let store = TestStore(initialState: PlantSearch.State()) {
      PlantSearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.plantClient.search = { _ in throw CatalogueDown() }
    }

    await store.send(.queryChanged("snake")) {
      $0.query = "snake"
      $0.isSearching = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.searchResponse(.failure(CatalogueDown()))) {
      $0.isSearching = false
      $0.errorMessage = "The catalogue is unavailable right now."
    }
  }

  func testClearingCancelsAnInFlightRequest() async {
    let clock = TestClock()
    let store = TestStore(initialState: PlantSearch.State()) {
      PlantSearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.plantClient.search = { _ in try await Task.never() }
    }

    await store.send(.queryChanged("rose")) {
      $0.query = "rose"
      $0.isSearching = true
    }
    await clock.advance(by: .milliseconds(300))
    await store.send(.clearButtonTapped) {
      $0.query = ""
      $0.isSearching = false
    }
    await store.finish()
  }

  func testResultsNonExhaustively() async {
    let clock = TestClock()
    let store = TestStore(initialState: PlantSearch.State()) {
      PlantSearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.plantClient = .liveValue
    }
    store.exhaustivity = .off

    await store.send(.queryChanged("Ros"))
    await store.send(.queryChanged("Rosem"))
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchResponse(.success([self.rosemary]))) {
      $0.results = [self.rosemary]
    }
    XCTAssertEqual(store.state.query, "Rosem")
    XCTAssertFalse(store.state.isSearching)
  }
}
