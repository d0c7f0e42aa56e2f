import Architecture
import Testing

@testable import PlainFeatures

/// Plays `session` on its plain root reducer, logging the actions it reduces.
@MainActor
private func played<S: PlainSession>(
  _ session: S.Type
) async -> (state: S.Feature.State, actions: [String]) {
  let log = LockIsolated<[String]>([])
  let outcome = await PlainSessions.run(session) { feature in
    Reduce<S.Feature.State, S.Feature.Action> { state, action in
      log.withValue { $0.append(String(describing: action)) }
      return feature.reduce(into: &state, action: action)
    }
  }
  return (outcome.finalState, log.value)
}

/// Whether some action of `actions` carried a `TaskResult` failure.
private func hasFailure(_ actions: [String]) -> Bool {
  actions.contains { $0.contains(".failure(") }
}

/// Each session ends where its script says, having passed through what its documentation
/// promises (a failure, a pop, an alert answered), so that a recording of it exercises those.
@MainActor
@Suite("Plain session ends")
struct PlainSessionEndsTests {
  @Test("Greenhouse: three waterings, a misting and a feeding, nothing left presented")
  func greenhouse() async {
    let (state, actions) = await played(GreenhouseSession.self)
    #expect(state == Greenhouse.State(feedings: 1, mistings: 1, waterings: 3))
    #expect(actions.contains { $0.contains("notice(") })
  }

  @Test("Parking meter: a declined payment on the way, the last quarter hour run out")
  func parkingMeter() async {
    let (state, actions) = await played(ParkingMeterSession.self)
    #expect(hasFailure(actions))
    #expect(state.minutesLeft == 0 && state.receipt == nil && state.paidAt != nil)
    #expect(actions.filter { $0 == "timerTicked" }.count == 18)
  }

  @Test("Bird log: two entries saved, the rare one only after its notes")
  func birdLog() async {
    let (state, _) = await played(BirdLogSession.self)
    #expect(state.savedEntries == ["999 × Curlew (overcast)", "1 × Hoopoe (rain)"])
    #expect(state.species.isEmpty)
  }

  @Test("Chore list: moves and deletes by IndexSet leave one open chore")
  func choreList() async {
    let (state, actions) = await played(ChoreListSession.self)
    #expect(state.chores.map(\.title) == ["Bins out"])
    #expect(actions.filter { $0.hasPrefix("move(") }.count == 2)
    #expect(actions.filter { $0 == "sortDoneChores" }.count == 3)
  }

  @Test("Tide search: two failed forecasts, each burst of typing searched once")
  func tideSearch() async {
    let (state, actions) = await played(TideSearchSession.self)
    #expect(actions.filter { $0.contains(".failure(") }.count == 2)
    #expect(actions.filter { $0.hasPrefix("searchResponse(") }.count == 4)
    #expect(state.query == "Xan" && state.harbors.isEmpty)
  }

  @Test("Hike log: a failed save, the added hike keeps its walk, the saved one is deleted")
  func hikeLog() async {
    let (state, actions) = await played(HikeLogSession.self)
    #expect(actions.filter { $0.hasPrefix("saveFailed(") }.count == 1)
    #expect(state.saveError == nil)
    #expect(state.list.hikes.map(\.title) == ["Estuary walk"])
    #expect(state.list.hikes.first?.walks.count == 1)
    #expect(state.path.isEmpty)
    #expect(actions.filter { $0.contains("popFrom(") }.count == 3)
  }

  @Test("Field notes: a refused microphone on the way, one note left in the temporary directory")
  func fieldNotes() async {
    let (state, actions) = await played(FieldNotesSession.self)
    #expect(hasFailure(actions))
    #expect(state.notes.count == 1)
    #expect(
      state.notes.first?.url.deletingLastPathComponent().standardizedFileURL
        == FileManager.default.temporaryDirectory.standardizedFileURL
    )
  }

  @Test("Arcade: two failed attempts, a game played to its loser, then signed in anew")
  func arcade() async {
    let (state, actions) = await played(ArcadeSession.self)
    #expect(actions.filter { $0.contains(".failure(") }.count == 2)
    #expect(actions.contains { $0.contains("playAgainButtonTapped") })
    #expect(state == .game(Nim.State(players: ["grace", "Guest"])))
  }

  @Test("Podcast shelf: some favorites fail and flip back, no alert is left open")
  func podcastShelf() async {
    let (state, actions) = await played(PodcastShelfSession.self)
    #expect(hasFailure(actions))
    #expect(state.episodes.allSatisfy { $0.alert == nil })
    #expect(!state.showsFavoritesOnly)
  }

  @Test("Garden planner: every destination visited, the beds cleared, one note kept")
  func gardenPlanner() async {
    let (state, actions) = await played(GardenPlannerSession.self)
    #expect(state == GardenPlanner.State(notes: ["Net the kale against pigeons"]))
    for destination in ["seedPicker(", "bed(", "soilTest(", "alert("] {
      #expect(actions.contains { $0.contains(destination) }, "\(destination)")
    }
  }

  @Test("Pantry tabs: three items bought through the shared stock")
  func pantryTabs() async {
    let (state, _) = await played(PantryTabsSession.self)
    #expect(state.boughtCount == 3)
    #expect(state.stock == ["Flour": 1, "Eggs": 0, "Rice": 1, "Lentils": 1])
  }
}
