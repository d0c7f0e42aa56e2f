import Architecture

/// The app's root: onboarding until an account exists, then home, and back again on log-out.
struct AppRoot: Reducer {
  enum State: Equatable, Codable {
    case home(Home.State)
    case onboarding(Onboarding.State)
  }

  enum Action: Equatable, Codable {
    case home(Home.Action)
    case onboarding(Onboarding.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .home(.logOutButtonTapped):
        state = .onboarding(Onboarding.State())
        return .none

      case let .onboarding(.delegate(.finished(account))):
        state = .home(Home.State(account: account))
        return .none

      case .home, .onboarding:
        return .none
      }
    }
    .ifCaseLet(/State.onboarding, action: /Action.onboarding) {
      Onboarding()
    }
    .ifCaseLet(/State.home, action: /Action.home) {
      Home()
    }
  }
}
