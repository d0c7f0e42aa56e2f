import Architecture

/// Waters until the notice says enough, mists, cancels a dialog, and answers the feed alert
/// both ways.
enum GreenhouseSession: PlainSession {
  static let name = "Greenhouse"
  static func makeReducer() -> Greenhouse { Greenhouse() }
  static func makeInitialState() -> Greenhouse.State { Greenhouse.State() }
  static func prepareDependencies(_ dependencies: inout DependencyValues) {}

  static func drive(_ driver: PlainDriver<Greenhouse.State, Greenhouse.Action>) async {
    for _ in 0...Greenhouse.dailyWaterings {
      await driver.send(.careButtonTapped)
      await driver.send(.dialog(.presented(.water)))
    }
    await driver.send(.notice(.dismiss))
    await driver.send(.careButtonTapped)
    await driver.send(.dialog(.presented(.mist)))
    await driver.send(.careButtonTapped)
    await driver.send(.dialog(.dismiss))
    await driver.send(.feedButtonTapped)
    await driver.send(.alert(.presented(.feedConfirmed)))
    await driver.send(.feedButtonTapped)
    await driver.send(.alert(.dismiss))
  }
}
