import Architecture

/// A settings form: toggles and a name bound straight to state, saved as they change, and a
/// destructive "reset everything" behind a confirmation dialog.
struct NotificationSettings: Reducer {
  struct State: Equatable {
    @PresentationState var confirmationDialog: ConfirmationDialogState<Action.ConfirmationDialog>?
    @BindingState var digestEnabled = false
    @BindingState var digestHour = 8
    @BindingState var displayName = ""
    var displayNameError: String?
    @BindingState var mentionsOnly = false
    var saveError: String?

    var preferences: Preferences {
      Preferences(
        digestEnabled: digestEnabled,
        digestHour: digestHour,
        displayName: displayName,
        mentionsOnly: mentionsOnly
      )
    }
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case confirmationDialog(PresentationAction<ConfirmationDialog>)
    case preferencesLoaded(TaskResult<Preferences>)
    case resetButtonTapped
    case saveFailed
    case task

    enum ConfirmationDialog: Equatable {
      case confirmReset
    }
  }

  @Dependency(\.preferencesClient) var preferencesClient

  var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.displayName) { _, newValue in
        Reduce { state, _ in
          state.displayNameError =
            newValue.trimmingCharacters(in: .whitespaces).isEmpty
            ? "Your name can't be blank."
            : nil
          return .none
        }
      }

    Reduce { state, action in
      switch action {
      case .binding(\.$digestEnabled):
        if !state.digestEnabled {
          state.mentionsOnly = false
        }
        return self.save(state.preferences)

      case .binding(\.$digestHour):
        state.digestHour = min(max(state.digestHour, 0), 23)
        return self.save(state.preferences)

      case .binding(\.$mentionsOnly):
        return self.save(state.preferences)

      case .binding:
        return .none

      case .confirmationDialog(.presented(.confirmReset)):
        let defaults = Preferences()
        state.digestEnabled = defaults.digestEnabled
        state.digestHour = defaults.digestHour
        state.mentionsOnly = defaults.mentionsOnly
        return self.save(state.preferences)

      case .confirmationDialog:
        return .none

      case let .preferencesLoaded(.success(preferences)):
        state.digestEnabled = preferences.digestEnabled
        state.digestHour = preferences.digestHour
        state.displayName = preferences.displayName
        state.mentionsOnly = preferences.mentionsOnly
        return .none

      case .preferencesLoaded(.failure):
        state.saveError = "Couldn't load your settings."
        return .none

      case .resetButtonTapped:
        state.confirmationDialog = .resetAll
        return .none

      case .saveFailed:
        state.saveError = "Couldn't save your settings."
        return .none

      case .task:
        return .run { send in
          await send(.preferencesLoaded(TaskResult { try await self.preferencesClient.load() }))
        }
      }
    }
    .ifLet(\.$confirmationDialog, action: /Action.confirmationDialog)
  }

  private func save(_ preferences: Preferences) -> Effect<Action> {
    .run { _ in
      try await self.preferencesClient.save(preferences)
    } catch: { _, send in
      await send(.saveFailed)
    }
  }
}

extension ConfirmationDialogState where Action == NotificationSettings.Action.ConfirmationDialog {
  static var resetAll: Self {
    ConfirmationDialogState(titleVisibility: .visible) {
      TextState("Reset notification settings?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmReset) {
        TextState("Reset")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState("Your digest and mention settings go back to their defaults.")
    }
  }
}
