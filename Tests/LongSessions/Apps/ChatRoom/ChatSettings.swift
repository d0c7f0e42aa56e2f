import Architecture

/// The settings sheet: a display name, a password and notifications, saved or cancelled, and
/// dismissed by itself.
struct ChatSettings: Reducer {
  struct State: Equatable {
    @BindingState var displayName: String
    @BindingState var notificationsEnabled = true
    @BindingState var password = ""
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case cancelButtonTapped
    case delegate(Delegate)
    case saveButtonTapped

    enum Delegate: Equatable {
      case saved(displayName: String, notificationsEnabled: Bool)
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none

      case .cancelButtonTapped:
        return .run { _ in await self.dismiss() }

      case .delegate:
        return .none

      case .saveButtonTapped:
        let name = state.displayName
        let enabled = state.notificationsEnabled
        return .run { send in
          await send(.delegate(.saved(displayName: name, notificationsEnabled: enabled)))
          await self.dismiss()
        }
      }
    }
  }
}
