import Architecture

/// Uses up stock on the shelf tab, switches to the shopping tab to buy what ran out, and back.
enum PantryTabsSession: PlainSession {
  static let name = "Pantry tabs"
  static func makeReducer() -> PantryTabs { PantryTabs() }
  static func makeInitialState() -> PantryTabs.State { PantryTabs.State() }
  static func prepareDependencies(_ dependencies: inout DependencyValues) {}

  static func drive(_ driver: PlainDriver<PantryTabs.State, PantryTabs.Action>) async {
    await driver.send(.shelf(.useButtonTapped("Rice")))
    await driver.send(.shelf(.useButtonTapped("Flour")))
    await driver.send(.shelf(.useButtonTapped("Flour")))
    await driver.send(.shelf(.useButtonTapped("Flour")))
    await driver.send(.shelf(.restockButtonTapped("Lentils")))
    await driver.send(.set(\.$selectedTab, .shopping))
    await driver.send(.shopping(.boughtButtonTapped("Eggs")))
    await driver.send(.shopping(.boughtButtonTapped("Lentils")))
    await driver.send(.shopping(.buyEverythingButtonTapped))
    await driver.send(.set(\.$selectedTab, .shelf))
    await driver.send(.shelf(.useButtonTapped("Eggs")))
  }
}
