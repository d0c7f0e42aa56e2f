import Architecture

/// Types a query in bursts (each burst searched once, after the pause), reads three harbours'
/// tides (one gauge is down, and the network is down for another), clears the query, and
/// searches for what no harbour is called.
enum TideSearchSession: PlainSession {
  static let name = "Tide search"
  static func makeReducer() -> TideSearch { TideSearch() }
  static func makeInitialState() -> TideSearch.State { TideSearch.State() }

  static func prepareDependencies(_ dependencies: inout DependencyValues) {
    dependencies.tideClient = .liveValue
    // The harbour office's link is down: a Foundation error, not one of the app's.
    dependencies.tideClient.forecast = { harbor in
      guard harbor.name != "Port Isaac" else { throw URLError(.notConnectedToInternet) }
      return try await TideClient.liveValue.forecast(harbor)
    }
  }

  static func drive(_ driver: PlainDriver<TideSearch.State, TideSearch.Action>) async {
    await driver.send(.queryChanged("P"))
    await driver.send(.queryChanged("Po"))
    await driver.advance(by: .milliseconds(300))
    await driver.send(.queryChanged("Por"))
    await driver.advance(by: .milliseconds(100))
    await driver.send(.queryChanged("Port"))
    await driver.advance(by: .milliseconds(300))
    let harbors = driver.state.harbors
    if let portsmouth = harbors.first(where: { $0.name == "Portsmouth" }) {
      await driver.send(.harborTapped(portsmouth))
    }
    if let portree = harbors.first(where: { $0.name == "Portree" }) {
      await driver.send(.harborTapped(portree))
    }
    if let portIsaac = harbors.first(where: { $0.name == "Port Isaac" }) {
      await driver.send(.harborTapped(portIsaac))
    }
    await driver.send(.queryChanged("W"))
    await driver.advance(by: .milliseconds(300))
    await driver.send(.queryChanged(""))
    await driver.send(.queryChanged("Xan"))
    await driver.advance(by: .milliseconds(300))
  }
}
