import Architecture

/// The signed-in home screen.
struct Home: Reducer {
  struct State: Equatable, Codable {
    var account: Account
    var visits = 0
  }

  enum Action: Equatable, Codable {
    case logOutButtonTapped
    case onAppear
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .logOutButtonTapped:
        return .none

      case .onAppear:
        state.visits += 1
        return .none
      }
    }
  }
}
