import Architecture

/// The terms of service, which must be read to the end before they can be accepted.
struct Terms: Reducer {
  struct State: Equatable, Codable {
    var hasReadToEnd = false
  }

  enum Action: Equatable, Codable {
    case acceptButtonTapped
    case delegate(Delegate)
    case scrolledToEnd

    enum Delegate: Equatable, Codable {
      case accepted
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .acceptButtonTapped:
        guard state.hasReadToEnd else { return .none }
        return .send(.delegate(.accepted))

      case .delegate:
        return .none

      case .scrolledToEnd:
        state.hasReadToEnd = true
        return .none
      }
    }
  }
}
