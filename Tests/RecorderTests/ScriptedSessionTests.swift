import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// A station finder as a TCA user writes it, with no conformance for the tool: typing debounces
/// a search for 300 ms, and the client answers from another executor.
struct StationSearch: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
  }
  enum Action: Equatable {
    case queryChanged(String)
    case searchResponse([String])
  }
  enum CancelID { case search }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.stations) var stations

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .queryChanged(let query):
        state.query = query
        return .run { send in
          try await clock.sleep(for: .milliseconds(300))
          await send(.searchResponse(try await stations.search(query)))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)
      case .searchResponse(let results):
        state.results = results
        return .none
      }
    }
  }
}

struct StationClient: Sendable {
  var search: @Sendable (String) async throws -> [String]
}

extension StationClient: DependencyKey {
  static let liveValue = StationClient { _ in [] }
}

extension DependencyValues {
  var stations: StationClient {
    get { self[StationClient.self] }
    set { self[StationClient.self] = newValue }
  }
}

/// `Store.settle`, the public way a recording script waits for a store's effects.
@Suite("Scripted sessions")
@MainActor
struct ScriptedSessionTests {
  nonisolated static let stations = [
    "Lyon Part-Dieu", "Lyon Perrache", "Lyon Saint-Exupéry TGV", "Lille",
  ]

  /// A client that answers after a hop to the global executor, which no clock step covers.
  nonisolated static let client = StationClient { query in
    await Task.detached { stations.filter { $0.hasPrefix(query) } }.value
  }

  @Test("a script that settles after each action records the debounced search and its answer")
  func debouncedSearchIsRecorded() async throws {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer))
    let clock = TestClock()
    let store = Store(initialState: StationSearch.State()) {
      StationSearch().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
      $0.stations = Self.client
    }

    store.send(.queryChanged("Ly"))
    #expect(await store.settle(sleepingOn: clock))
    store.send(.queryChanged("Lyon"))
    #expect(await store.settle(sleepingOn: clock))
    #expect(clock.sleeperCount == 1, "the second query's debounce, the first one cancelled")
    await clock.advance(by: .milliseconds(300))
    #expect(await store.settle(sleepingOn: clock))
    #expect(store.results == ["Lyon Part-Dieu", "Lyon Perrache", "Lyon Saint-Exupéry TGV"])
    try recorder.close()

    let steps = try buffer.lines.map { try JSONValue(parsing: $0) }
      .filter { $0["kind"] == "step" }
    #expect(steps.map { $0["label"]?.stringValue ?? "" } == [
      #".queryChanged("Ly")"#, #".queryChanged("Lyon")"#, ".searchResponse([3 items])",
    ])
    #expect(steps.last?["action"]?["searchResponse"]?["_0"]?[2] == "Lyon Saint-Exupéry TGV")
    #expect(steps.last?["origin"] == "effect")
    #expect(steps.last?["cause"] == 1)
  }

  @Test("without a clock, settling waits for an effect that hops executors to finish")
  func settleWithoutClock() async {
    let store = Store(initialState: StationSearch.State()) {
      Reduce<StationSearch.State, StationSearch.Action> { state, action in
        switch action {
        case .queryChanged(let query):
          return .run { send in await send(.searchResponse(try await Self.client.search(query))) }
        case .searchResponse(let results):
          state.results = results
          return .none
        }
      }
    }
    store.send(.queryChanged("Li"))
    #expect(await store.settle())
    #expect(store.results == ["Lille"])
  }

  @Test("settling gives up, and says so, when an effect sleeps on a clock nobody advances")
  func settleGivesUp() async {
    let clock = TestClock()
    let store = Store(initialState: StationSearch.State()) {
      StationSearch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.stations = Self.client
    }
    store.send(.queryChanged("Ly"))
    #expect(await store.settle(maximumTurns: 1_000) == false)
    #expect(await store.settle(sleepingOn: clock))
  }
}
