import Architecture

/// The welcome screen. It presents the terms or the sign-up form in a sheet (one destination at
/// a time), greets the new user with an alert, and tells its parent when onboarding is over.
struct Onboarding: Reducer {
  struct State: Equatable, Codable {
    var account: Account?
    @PresentationState var alert: AlertState<Action.Alert>?
    @PresentationState var destination: Destination.State?
  }

  enum Action: Equatable, Codable {
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case destination(PresentationAction<Destination.Action>)
    case signUpButtonTapped
    case termsButtonTapped

    enum Alert: Equatable, Codable {
      case continueTapped
    }

    enum Delegate: Equatable, Codable {
      case finished(Account)
    }
  }

  struct Destination: Reducer {
    enum State: Equatable, Codable {
      case signUp(SignUp.State)
      case terms(Terms.State)
    }

    enum Action: Equatable, Codable {
      case signUp(SignUp.Action)
      case terms(Terms.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.signUp, action: /Action.signUp) {
        SignUp()
      }
      Scope(state: /State.terms, action: /Action.terms) {
        Terms()
      }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.continueTapped)):
        guard let account = state.account else { return .none }
        return .send(.delegate(.finished(account)), animation: .default)

      case .alert:
        return .none

      case .delegate:
        return .none

      case let .destination(.presented(.signUp(.delegate(.didCreateAccount(account))))):
        state.account = account
        state.alert = .welcome(account)
        return .none

      case .destination(.presented(.terms(.delegate(.accepted)))):
        state.destination = .signUp(SignUp.State())
        return .none

      case .destination:
        return .none

      case .signUpButtonTapped:
        state.destination = .signUp(SignUp.State())
        return .none

      case .termsButtonTapped:
        state.destination = .terms(Terms.State())
        return .none
      }
    }
    .ifLet(\.$destination, action: /Action.destination) {
      Destination()
    }
    .ifLet(\.$alert, action: /Action.alert)
  }
}

extension AlertState where Action == Onboarding.Action.Alert {
  static func welcome(_ account: Account) -> Self {
    AlertState {
      TextState("Welcome aboard, \(account.email)!")
    } actions: {
      ButtonState(action: .continueTapped) {
        TextState("Let's go")
      }
    }
  }
}
