import Architecture

/// Nim for two at one screen: take one to three stones in turn; whoever takes the last loses.
struct Nim: Reducer {
  enum Side: Equatable {
    case first
    case second

    var other: Side { self == .first ? .second : .first }
  }

  struct State: Equatable {
    var loser: Side?
    var moves: [Int] = []
    var players: [String]
    var stones = 15
    var turn: Side = .first

    var winnerName: String? {
      loser.map { players[$0 == .first ? 1 : 0] }
    }
  }

  enum Action: Equatable {
    case delegate(Delegate)
    case playAgainButtonTapped
    case quitButtonTapped
    case take(Int)

    enum Delegate: Equatable {
      case quit
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .delegate:
        return .none

      case .playAgainButtonTapped:
        state = State(players: state.players)
        return .none

      case .quitButtonTapped:
        return .send(.delegate(.quit))

      case let .take(count):
        guard state.loser == nil, (1...3).contains(count), count <= state.stones else {
          return .none
        }
        state.stones -= count
        state.moves.append(count)
        if state.stones == 0 {
          state.loser = state.turn
        } else {
          state.turn = state.turn.other
        }
        return .none
      }
    }
  }
}
