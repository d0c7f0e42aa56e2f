import Architecture

/// A thermostat with two fans: the ceiling fan combined the 0.x way, through the app's own
/// `Pullback`, and the desk fan through `Scope` with a case path built from closures. It warns
/// with an alert kept in a `static let`, as apps keep their alerts.
struct Thermostat: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    var ceilingFan = Fan.State()
    var deskFan = Fan.State()
    var readings: IdentifiedArrayOf<Reading> = .empty
    var targetCelsius = 21
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case ceilingFan(Fan.Action)
    case deskFan(Fan.Action)
    case temperatureRead(Reading)

    enum Alert: Equatable {
      case turnOnFansTapped
    }
  }

  var body: some ReducerOf<Self> {
    Pullback(
      state: \.ceilingFan,
      extract: { action in
        guard case let .ceilingFan(fanAction) = action else { return nil }
        return fanAction
      },
      embed: Action.ceilingFan,
      child: Fan()
    )
    Pullback(
      state: \.deskFan,
      extract: { action in
        guard case let .deskFan(fanAction) = action else { return nil }
        return fanAction
      },
      embed: Action.deskFan,
      child: Fan()
    )
    .scoped
    Reduce { state, action in
      switch action {
      case .alert(.presented(.turnOnFansTapped)):
        return .merge(
          .send(.ceilingFan(.powerButtonTapped)),
          .send(.deskFan(.powerButtonTapped))
        )

      case .alert, .ceilingFan, .deskFan:
        return .none

      case let .temperatureRead(reading):
        state.readings.append(reading)
        if reading.celsius > state.targetCelsius + 5 {
          state.alert = .tooHot
        }
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
  }
}

/// One temperature reading.
struct Reading: Equatable, Identifiable {
  var id: Int
  var celsius: Int
}

extension IdentifiedArray where ID == Reading.ID, Element == Reading {
  static let empty: Self = []
}

extension AlertState where Action == Thermostat.Action.Alert {
  static let tooHot = Self {
    TextState("It is too hot")
  } actions: {
    ButtonState(action: .turnOnFansTapped) {
      TextState("Turn on the fans")
    }
    ButtonState(role: .cancel) {
      TextState("Not now")
    }
  }
}
