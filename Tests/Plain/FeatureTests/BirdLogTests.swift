import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Bird log")
struct BirdLogTests {
  @Test("the count binding is kept between 1 and 999")
  func countClamped() async {
    let store = TestStore(initialState: BirdLog.State()) {
      BirdLog()
    }

    await store.send(.set(\.$count, 1_200)) {
      $0.count = 999
    }
    await store.send(.set(\.$count, 0)) {
      $0.count = 1
    }
  }

  @Test("switching the weather binding to rain resets the count")
  func rainResetsCount() async {
    let store = TestStore(initialState: BirdLog.State(count: 40)) {
      BirdLog()
    }

    await store.send(.set(\.$weather, .overcast)) {
      $0.weather = .overcast
    }
    await store.send(.set(\.$weather, .rain)) {
      $0.weather = .rain
      $0.count = 1
    }
  }

  @Test("a rare bird asks for notes and cannot be saved without them")
  func rareNeedsNotes() async {
    let store = TestStore(initialState: BirdLog.State(species: "Hoopoe")) {
      BirdLog()
    }

    await store.send(.set(\.$isRare, true)) {
      $0.isRare = true
      $0.notesPrompt = "Describe the field marks you saw."
    }
    await store.send(.saveButtonTapped)
    await store.send(.set(\.$notes, "Crest")) {
      $0.notes = "Crest"
    }
    await store.send(.saveButtonTapped) {
      $0.savedEntries = ["1 × Hoopoe (clear)"]
      $0.species = ""
      $0.isRare = false
      $0.notes = ""
      $0.notesPrompt = nil
    }
  }

  @Test("reset clears the form but keeps what was saved")
  func reset() async {
    let store = TestStore(
      initialState: BirdLog.State(savedEntries: ["3 × Wren (wind)"], species: "Jay")
    ) {
      BirdLog()
    }

    await store.send(.resetButtonTapped) {
      $0.species = ""
    }
  }
}
