import Architecture

/// The arcade's root: signed out it shows the sign-in flow, signed in a game of Nim against a
/// guest; quitting signs out.
struct Arcade: Reducer {
  enum State: Equatable {
    case game(Nim.State)
    case signIn(ArcadeSignIn.State)

    init() { self = .signIn(ArcadeSignIn.State()) }
  }

  enum Action: Equatable {
    case game(Nim.Action)
    case signIn(ArcadeSignIn.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .game(.delegate(.quit)):
        state = .signIn(ArcadeSignIn.State())
        return .none

      case .game:
        return .none

      case let .signIn(.delegate(.signedIn(player))):
        state = .game(Nim.State(players: [player.name, "Guest"]))
        return .none

      case .signIn:
        return .none
      }
    }
    .ifCaseLet(/State.signIn, action: /Action.signIn) {
      ArcadeSignIn()
    }
    .ifCaseLet(/State.game, action: /Action.game) {
      Nim()
    }
  }
}
