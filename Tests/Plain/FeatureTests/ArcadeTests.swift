import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Arcade")
struct ArcadeTests {
  @Test("a wrong password shows the error's description in an alert with no actions")
  func wrongPassword() async {
    let store = TestStore(
      initialState: ArcadeSignIn.State(email: "ada@example.com", password: "nope")
    ) {
      ArcadeSignIn()
    } withDependencies: {
      $0.arcadeAuth.signIn = { _, _ in throw SignInError.invalidPassword }
    }

    await store.send(.signInButtonTapped) {
      $0.isSigningIn = true
    }
    await store.receive(.signInResponse(.failure(SignInError.invalidPassword))) {
      $0.isSigningIn = false
      $0.alert = AlertState { TextState("The email or password is wrong.") }
    }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }
  }

  @Test("signing in switches the app to a game, through ifCaseLet")
  func signInStartsGame() async {
    let store = TestStore(
      initialState: Arcade.State.signIn(
        ArcadeSignIn.State(email: "ada@example.com", password: "hunter2")
      )
    ) {
      Arcade()
    } withDependencies: {
      $0.arcadeAuth.signIn = { _, _ in SignInResponse(needsCode: false, token: "t") }
    }

    await store.send(.signIn(.signInButtonTapped)) {
      XCTModify(&$0, case: /Arcade.State.signIn) { $0.isSigningIn = true }
    }
    let response = SignInResponse(needsCode: false, token: "t")
    await store.receive(.signIn(.signInResponse(.success(response)))) {
      XCTModify(&$0, case: /Arcade.State.signIn) { $0.isSigningIn = false }
    }
    await store.receive(.signIn(.delegate(.signedIn(Player(name: "ada", token: "t"))))) {
      $0 = .game(Nim.State(players: ["ada", "Guest"]))
    }
  }

  @Test("a code account opens the code sheet; a wrong code is explained, a right one signs in")
  func twoFactor() async {
    let store = TestStore(
      initialState: ArcadeSignIn.State(email: "ada@secure.example", password: "hunter2")
    ) {
      ArcadeSignIn()
    } withDependencies: {
      $0.arcadeAuth = .liveValue
    }

    await store.send(.signInButtonTapped) {
      $0.isSigningIn = true
    }
    let response = SignInResponse(needsCode: true, token: "t-ada@secure.example")
    await store.receive(.signInResponse(.success(response))) {
      $0.isSigningIn = false
      $0.code = CodeEntry.State(token: "t-ada@secure.example")
    }
    await store.send(.code(.presented(.set(\.$code, "9999")))) {
      $0.code?.code = "9999"
    }
    await store.send(.code(.presented(.submitButtonTapped))) {
      $0.code?.isVerifying = true
    }
    await store.receive(.code(.presented(.verifyResponse(.failure(SignInError.invalidCode))))) {
      $0.code?.isVerifying = false
      $0.code?.errorMessage = "That code has expired. Ask for a new one."
    }
    await store.send(.code(.presented(.set(\.$code, "1234")))) {
      $0.code?.code = "1234"
    }
    await store.send(.code(.presented(.submitButtonTapped))) {
      $0.code?.isVerifying = true
      $0.code?.errorMessage = nil
    }
    let player = Player(name: "ada", token: "t-ada@secure.example")
    await store.receive(.code(.presented(.verifyResponse(.success(player))))) {
      $0.code?.isVerifying = false
    }
    await store.receive(.code(.presented(.delegate(.verified(player))))) {
      $0.code = nil
    }
    await store.receive(.delegate(.signedIn(player)))
  }

  @Test("Nim: whoever takes the last stone loses; illegal takes are ignored; quitting signs out")
  func nim() async {
    let game = Nim.State(players: ["ada", "Guest"], stones: 4)
    let store = TestStore(initialState: Arcade.State.game(game)) {
      Arcade()
    }

    await store.send(.game(.take(4)))
    await store.send(.game(.take(3))) {
      XCTModify(&$0, case: /Arcade.State.game) {
        $0.stones = 1
        $0.moves = [3]
        $0.turn = .second
      }
    }
    await store.send(.game(.take(1))) {
      XCTModify(&$0, case: /Arcade.State.game) {
        $0.stones = 0
        $0.moves = [3, 1]
        $0.loser = .second
      }
    }
    if case let .game(game) = store.state {
      #expect(game.winnerName == "ada")
    }
    await store.send(.game(.quitButtonTapped))
    await store.receive(.game(.delegate(.quit))) {
      $0 = .signIn(ArcadeSignIn.State())
    }
  }
}
