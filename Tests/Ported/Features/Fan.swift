import Architecture

/// A fan that takes a moment to spin up once switched on.
struct Fan: Reducer {
  struct State: Equatable {
    var isOn = false
    var isSpinning = false
  }

  enum Action: Equatable {
    case powerButtonTapped
    case spunUp
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .powerButtonTapped:
      state.isOn.toggle()
      state.isSpinning = false
      return state.isOn ? .run { send in await send(.spunUp) } : .none

    case .spunUp:
      state.isSpinning = true
      return .none
    }
  }
}
