import Architecture

/// Logs a flock, a rare bird (refused until notes are typed), overshoots the counter, switches
/// the weather to rain, and resets the form.
enum BirdLogSession: PlainSession {
  static let name = "Bird log"
  static func makeReducer() -> BirdLog { BirdLog() }
  static func makeInitialState() -> BirdLog.State { BirdLog.State() }
  static func prepareDependencies(_ dependencies: inout DependencyValues) {}

  static func drive(_ driver: PlainDriver<BirdLog.State, BirdLog.Action>) async {
    await driver.send(.set(\.$species, "Curlew"))
    await driver.send(.set(\.$count, 1_200))
    await driver.send(.set(\.$weather, .overcast))
    await driver.send(.saveButtonTapped)
    await driver.send(.set(\.$species, "Hoopoe"))
    await driver.send(.set(\.$count, 2))
    await driver.send(.set(\.$isRare, true))
    await driver.send(.saveButtonTapped)
    await driver.send(.set(\.$notes, "Crest raised, barred wings"))
    await driver.send(.set(\.$weather, .rain))
    await driver.send(.saveButtonTapped)
    await driver.send(.set(\.$species, "Starling"))
    await driver.send(.set(\.$count, 0))
    await driver.send(.set(\.$weather, .wind))
    await driver.send(.resetButtonTapped)
  }
}
