import Architecture

/// Adds beds through the seed picker (one sheet cancelled), drills into a bed and changes it,
/// takes a soil reading in the popover, writes and discards notes, and clears the beds after
/// first dismissing the alert.
enum GardenPlannerSession: PlainSession {
  static let name = "Garden planner"
  static func makeReducer() -> GardenPlanner { GardenPlanner() }
  static func makeInitialState() -> GardenPlanner.State { GardenPlanner.State() }

  static func prepareDependencies(_ dependencies: inout DependencyValues) {
    dependencies.uuid = .incrementing
  }

  static func drive(_ driver: PlainDriver<GardenPlanner.State, GardenPlanner.Action>) async {
    for crop in ["Kale", "Beans"] {
      await driver.send(.addBedButtonTapped)
      await driver.send(.destination(.presented(.seedPicker(.cropTapped(crop)))))
    }
    await driver.send(.addBedButtonTapped)
    await driver.send(.destination(.presented(.seedPicker(.cancelButtonTapped))))

    guard let kale = driver.state.beds.first?.id else { return }
    await driver.send(.bedTapped(kale))
    await driver.send(.destination(.presented(.bed(.incrementButtonTapped))))
    await driver.send(.destination(.presented(.bed(.incrementButtonTapped))))
    await driver.send(.destination(.presented(.bed(.decrementButtonTapped))))
    await driver.send(.destination(.presented(.bed(.doneButtonTapped))))

    await driver.send(.soilTestButtonTapped)
    await driver.send(.destination(.presented(.soilTest(.measureButtonTapped))))
    await driver.advance(by: .seconds(2))
    await driver.send(.destination(.dismiss))
    // Dismissed mid-measurement: the reading is cancelled with the popover.
    await driver.send(.soilTestButtonTapped)
    await driver.send(.destination(.presented(.soilTest(.measureButtonTapped))))
    await driver.send(.destination(.dismiss))

    await driver.send(.noteButtonTapped)
    await driver.send(.note(.presented(.set(\.$text, "Net the kale against pigeons"))))
    await driver.send(.note(.presented(.saveButtonTapped)))
    await driver.send(.noteButtonTapped)
    await driver.send(.note(.presented(.set(\.$text, "Never mind"))))
    await driver.send(.note(.presented(.discardButtonTapped)))

    await driver.send(.removeAllButtonTapped)
    await driver.send(.destination(.dismiss))
    await driver.send(.removeAllButtonTapped)
    await driver.send(.destination(.presented(.alert(.confirmRemoveAll))))
  }
}
