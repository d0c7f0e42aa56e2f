import Architecture

/// Signs in with a wrong password (the alert says why), then with a code account (a wrong code
/// first), plays a game of Nim to the end and a second one briefly, and quits.
enum ArcadeSession: PlainSession {
  static let name = "Arcade"
  static func makeReducer() -> Arcade { Arcade() }
  static func makeInitialState() -> Arcade.State { Arcade.State() }

  static func prepareDependencies(_ dependencies: inout DependencyValues) {
    dependencies.arcadeAuth = .liveValue
  }

  static func drive(_ driver: PlainDriver<Arcade.State, Arcade.Action>) async {
    await driver.send(.signIn(.set(\.$email, "ada@secure.example")))
    await driver.send(.signIn(.set(\.$password, "letmein")))
    await driver.send(.signIn(.signInButtonTapped))
    await driver.send(.signIn(.alert(.dismiss)))
    await driver.send(.signIn(.set(\.$password, "hunter2")))
    await driver.send(.signIn(.signInButtonTapped))
    await driver.send(.signIn(.code(.presented(.set(\.$code, "99")))))
    await driver.send(.signIn(.code(.presented(.submitButtonTapped))))
    await driver.send(.signIn(.code(.presented(.set(\.$code, "9999")))))
    await driver.send(.signIn(.code(.presented(.submitButtonTapped))))
    await driver.send(.signIn(.code(.presented(.set(\.$code, "1234")))))
    await driver.send(.signIn(.code(.presented(.submitButtonTapped))))

    for stones in [3, 3, 4, 3, 3, 2, 1, 1] {
      await driver.send(.game(.take(stones)))
    }
    await driver.send(.game(.playAgainButtonTapped))
    await driver.send(.game(.take(2)))
    await driver.send(.game(.quitButtonTapped))
    await driver.send(.signIn(.set(\.$email, "grace@example.com")))
    await driver.send(.signIn(.set(\.$password, "hunter2")))
    await driver.send(.signIn(.signInButtonTapped))
  }
}
