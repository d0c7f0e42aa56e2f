import Architecture

/// Signing in: email and password, then a code for accounts that need one. A failure is shown
/// in an alert worded by the error itself.
struct ArcadeSignIn: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    @PresentationState var code: CodeEntry.State?
    @BindingState var email = ""
    var isSigningIn = false
    @BindingState var password = ""

    var isFormValid: Bool { email.contains("@") && !password.isEmpty }
  }

  enum Action: BindableAction, Equatable {
    case alert(PresentationAction<Alert>)
    case binding(BindingAction<State>)
    case code(PresentationAction<CodeEntry.Action>)
    case delegate(Delegate)
    case signInButtonTapped
    case signInResponse(TaskResult<SignInResponse>)

    enum Alert: Equatable {}

    enum Delegate: Equatable {
      case signedIn(Player)
    }
  }

  @Dependency(\.arcadeAuth) var auth

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .alert:
        return .none

      case .binding:
        return .none

      case let .code(.presented(.delegate(.verified(player)))):
        state.code = nil
        return .send(.delegate(.signedIn(player)))

      case .code:
        return .none

      case .delegate:
        return .none

      case .signInButtonTapped:
        guard state.isFormValid else { return .none }
        state.isSigningIn = true
        return .run { [email = state.email, password = state.password] send in
          await send(
            .signInResponse(TaskResult { try await self.auth.signIn(email, password) })
          )
        }

      case let .signInResponse(.success(response)):
        state.isSigningIn = false
        if response.needsCode {
          state.code = CodeEntry.State(token: response.token)
          return .none
        }
        let name = String(state.email.prefix { $0 != "@" })
        return .send(.delegate(.signedIn(Player(name: name, token: response.token))))

      case let .signInResponse(.failure(error)):
        state.isSigningIn = false
        state.alert = AlertState { TextState(error.localizedDescription) }
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
    .ifLet(\.$code, action: /Action.code) {
      CodeEntry()
    }
  }
}

/// The one-time code sheet.
struct CodeEntry: Reducer {
  struct State: Equatable {
    @BindingState var code = ""
    var errorMessage: String?
    var isVerifying = false
    var token: String
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case delegate(Delegate)
    case submitButtonTapped
    case verifyResponse(TaskResult<Player>)

    enum Delegate: Equatable {
      case verified(Player)
    }
  }

  @Dependency(\.arcadeAuth) var auth

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none

      case .delegate:
        return .none

      case .submitButtonTapped:
        guard state.code.count == 4 else { return .none }
        state.isVerifying = true
        state.errorMessage = nil
        return .run { [code = state.code, token = state.token] send in
          await send(.verifyResponse(TaskResult { try await self.auth.verify(code, token) }))
        }

      case let .verifyResponse(.success(player)):
        state.isVerifying = false
        return .send(.delegate(.verified(player)))

      case let .verifyResponse(.failure(error)):
        state.isVerifying = false
        state.errorMessage = error.localizedDescription
        return .none
      }
    }
  }
}
