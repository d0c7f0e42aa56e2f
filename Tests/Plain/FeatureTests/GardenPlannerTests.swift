import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Garden planner")
struct GardenPlannerTests {
  @Test("picking a crop in the sheet adds a bed, and the sheet dismisses itself")
  func seedPicker() async {
    let store = TestStore(initialState: GardenPlanner.State()) {
      GardenPlanner()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.addBedButtonTapped) {
      $0.destination = .seedPicker(SeedPicker.State())
    }
    await store.send(.destination(.presented(.seedPicker(.cropTapped("Kale")))))
    await store.receive(.destination(.presented(.seedPicker(.delegate(.picked("Kale")))))) {
      $0.beds = [Bed(id: UUID(0), crop: "Kale")]
    }
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
    }
  }

  @Test("a bed drilled into reports its changes to the planner and closes itself")
  func bedDetail() async {
    let bed = Bed(id: UUID(5), crop: "Beans")
    let store = TestStore(initialState: GardenPlanner.State(beds: [bed])) {
      GardenPlanner()
    }

    await store.send(.bedTapped(bed.id)) {
      $0.destination = .bed(BedDetail.State(bed: bed))
    }
    await store.send(.destination(.presented(.bed(.incrementButtonTapped)))) {
      $0.destination = .bed(BedDetail.State(bed: Bed(id: UUID(5), crop: "Beans", plants: 5)))
    }
    let changed = Bed(id: UUID(5), crop: "Beans", plants: 5)
    await store.receive(.destination(.presented(.bed(.delegate(.bedChanged(changed)))))) {
      $0.beds[id: bed.id]?.plants = 5
    }
    await store.send(.destination(.presented(.bed(.doneButtonTapped))))
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
    }
  }

  @Test("the soil popover measures after two seconds; dismissing it cancels the reading")
  func soilTest() async {
    let clock = TestClock()
    let store = TestStore(initialState: GardenPlanner.State()) {
      GardenPlanner()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.soilTestButtonTapped) {
      $0.destination = .soilTest(SoilTest.State())
    }
    await store.send(.destination(.presented(.soilTest(.measureButtonTapped)))) {
      $0.destination = .soilTest(SoilTest.State(isMeasuring: true))
    }
    await clock.advance(by: .seconds(2))
    await store.receive(.destination(.presented(.soilTest(.measured(6.5))))) {
      $0.destination = .soilTest(SoilTest.State(isMeasuring: false, ph: 6.5))
    }
    await store.send(.destination(.presented(.soilTest(.measureButtonTapped)))) {
      $0.destination = .soilTest(SoilTest.State(isMeasuring: true, ph: 6.5))
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
    await clock.advance(by: .seconds(5))
  }

  @Test("the clear alert clears every bed when confirmed")
  func clearAlert() async {
    let store = TestStore(
      initialState: GardenPlanner.State(beds: [Bed(id: UUID(1), crop: "Kale")])
    ) {
      GardenPlanner()
    }

    await store.send(.removeAllButtonTapped) {
      $0.destination = .alert(
        AlertState {
          TextState("Clear all 1 beds?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmRemoveAll) { TextState("Clear") }
        }
      )
    }
    await store.send(.destination(.presented(.alert(.confirmRemoveAll)))) {
      $0.beds = []
      $0.destination = nil
    }
  }

  @Test("a planting note saved from its sheet is kept; discarding keeps nothing")
  func notes() async {
    let store = TestStore(initialState: GardenPlanner.State()) {
      GardenPlanner()
    }

    await store.send(.noteButtonTapped) {
      $0.note = PlantingNote.State()
    }
    await store.send(.note(.presented(.set(\.$text, "Mulch")))) {
      $0.note?.text = "Mulch"
    }
    await store.send(.note(.presented(.saveButtonTapped)))
    await store.receive(.note(.presented(.delegate(.save("Mulch"))))) {
      $0.notes = ["Mulch"]
    }
    await store.receive(.note(.dismiss)) {
      $0.note = nil
    }
    await store.send(.noteButtonTapped) {
      $0.note = PlantingNote.State()
    }
    await store.send(.note(.presented(.discardButtonTapped)))
    await store.receive(.note(.dismiss)) {
      $0.note = nil
    }
  }
}
