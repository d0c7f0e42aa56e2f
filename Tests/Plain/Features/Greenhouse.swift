import Architecture

/// A greenhouse bench: water or mist the seedlings from a dialog, feed them after an alert, and
/// a notice (an alert with no actions of its own) when they have had enough for the day.
struct Greenhouse: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    @PresentationState var dialog: ConfirmationDialogState<Action.Dialog>?
    var feedings = 0
    var mistings = 0
    @PresentationState var notice: AlertState<Action.Notice>?
    var waterings = 0
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case careButtonTapped
    case dialog(PresentationAction<Dialog>)
    case feedButtonTapped
    case notice(PresentationAction<Notice>)

    enum Alert: Equatable {
      case feedConfirmed
    }

    enum Dialog: Equatable {
      case mist
      case water
    }

    /// A notice only informs: its one button dismisses it.
    enum Notice: Equatable {}
  }

  static let dailyWaterings = 3

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.feedConfirmed)):
        state.feedings += 1
        return .none

      case .alert:
        return .none

      case .careButtonTapped:
        let waterings = state.waterings
        state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
          TextState("Care for the seedlings")
        } actions: {
          ButtonState(action: .water) { TextState("Water") }
          ButtonState(action: .mist) { TextState("Mist") }
          ButtonState(role: .cancel) { TextState("Not now") }
        } message: {
          TextState("Watered \(waterings) of \(Self.dailyWaterings) times today.")
        }
        return .none

      case .dialog(.presented(.mist)):
        state.mistings += 1
        return .none

      case .dialog(.presented(.water)):
        guard state.waterings < Self.dailyWaterings else {
          state.notice = AlertState {
            TextState("The seedlings have had enough water today.")
          }
          return .none
        }
        state.waterings += 1
        return .none

      case .dialog:
        return .none

      case .feedButtonTapped:
        let feedings = state.feedings
        state.alert = AlertState {
          TextState("Feed the seedlings?")
        } actions: {
          ButtonState(role: .destructive, action: .feedConfirmed) { TextState("Feed") }
          ButtonState(role: .cancel) { TextState("Cancel") }
        } message: {
          TextState("Feedings so far: \(feedings). Too much feed burns the roots.")
        }
        return .none

      case .notice:
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
    .ifLet(\.$dialog, action: /Action.dialog)
    .ifLet(\.$notice, action: /Action.notice)
  }
}
