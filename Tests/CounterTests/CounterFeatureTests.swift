import Architecture
import Counter
import XCTest

// The TCA 1.0 tour's tests, ported by changing the import only.
final class CounterFeatureTests: XCTestCase {
  @MainActor
  func testCounter() async {
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    }

    await store.send(.incrementButtonTapped) {
      $0.count = 1
    }
    await store.send(.decrementButtonTapped) {
      $0.count = 0
    }
  }

  @MainActor
  func testTimer() async {
    let clock = TestClock()

    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.toggleTimerButtonTapped) {
      $0.isTimerRunning = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTick) {
      $0.count = 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTick) {
      $0.count = 2
    }
    await store.send(.toggleTimerButtonTapped) {
      $0.isTimerRunning = false
    }
  }

  @MainActor
  func testNumberFact() async {
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }

    await store.send(.factButtonTapped) {
      $0.isLoading = true
    }
    await store.receive(.factResponse("0 is a good number.")) {
      $0.isLoading = false
      $0.fact = "0 is a good number."
    }
  }

  @MainActor
  func testNumberFactFailure() async {
    struct Offline: Error, CustomStringConvertible {
      var description: String { "The fact service is offline." }
    }
    let store = TestStore(initialState: CounterFeature.State()) {
      CounterFeature()
    } withDependencies: {
      $0.numberFact.fetch = { _ in throw Offline() }
    }

    await store.send(.factButtonTapped) {
      $0.isLoading = true
    }
    await store.receive(.factRequestFailed("The fact service is offline.")) {
      $0.isLoading = false
      $0.factError = "The fact service is offline."
    }
  }

  @MainActor
  func testLiveFactsNeedNoNetwork() async throws {
    let client = NumberFactClient.liveValue
    try await withDependencies {
      $0.continuousClock = ImmediateClock()
    } operation: {
      let seven = try await client.fetch(7)
      XCTAssertEqual(seven, "7 is a prime number.")
      let nine = try await client.fetch(9)
      XCTAssertEqual(nine, "9 is the square of 3.")
      do {
        _ = try await client.fetch(-1)
        XCTFail("Expected no fact about a negative number")
      } catch {
        XCTAssertEqual("\(error)", "No fact is known about -1.")
      }
    }
  }
}
