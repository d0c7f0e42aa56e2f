import Architecture

/// The sign-up form. Presented as a sheet it closes itself when the account is created or the
/// user cancels; shown on its own it just reports the new account.
struct SignUp: Reducer {
  struct State: Equatable, Codable {
    @BindingState var email = ""
    var errorMessage: String?
    var isSubmitting = false
    @BindingState var password = ""

    var canSubmit: Bool { email.contains("@") && password.count >= 8 }
  }

  enum Action: BindableAction, Equatable, Codable {
    case binding(BindingAction<State>)
    case cancelButtonTapped
    case delegate(Delegate)
    case signUpResponse(TaskResult<Account>)
    case submitButtonTapped

    enum Delegate: Equatable, Codable {
      case didCreateAccount(Account)
    }
  }

  @Dependency(\.accountClient) var accountClient
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.isPresented) var isPresented

  var body: some ReducerOf<Self> {
    BindingReducer()

    Reduce { state, action in
      switch action {
      case .binding:
        state.errorMessage = nil
        return .none

      case .cancelButtonTapped:
        guard self.isPresented else { return .none }
        return .run { _ in await self.dismiss() }

      case .delegate:
        return .none

      case .signUpResponse(.failure):
        state.isSubmitting = false
        state.errorMessage = "We couldn't create your account. Try again."
        return .none

      case let .signUpResponse(.success(account)):
        state.isSubmitting = false
        return .run { send in
          await send(.delegate(.didCreateAccount(account)))
          if self.isPresented {
            await self.dismiss()
          }
        }

      case .submitButtonTapped:
        guard state.canSubmit else {
          state.errorMessage = "Enter an email address and a password of 8 or more characters."
          return .none
        }
        state.isSubmitting = true
        return .run { [email = state.email, password = state.password] send in
          await send(
            .signUpResponse(
              TaskResult { try await self.accountClient.register(email, password) }
            )
          )
        }
      }
    }
  }
}
