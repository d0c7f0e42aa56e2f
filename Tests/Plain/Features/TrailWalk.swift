import Architecture

/// Walking a hike: a timer counts the planned minutes down, a waypoint is announced at each
/// share of the route, and ending early asks whether to keep the walk.
struct TrailWalk: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    var hike: Hike
    var secondsElapsed = 0
    var waypointIndex = 0

    var secondsPlanned: Int { hike.minutes * 60 }
    var secondsPerWaypoint: Int { secondsPlanned / max(1, hike.waypoints.count) }
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case endWalkButtonTapped
    case onTask
    case timerTicked

    enum Alert: Equatable {
      case confirmDiscard
      case confirmSave
    }

    enum Delegate: Equatable {
      case saveWalk(Walk)
    }
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDiscard)):
        return .merge(.cancel(id: CancelID.timer), .run { _ in await self.dismiss() })

      case .alert(.presented(.confirmSave)):
        return self.finish(state)

      case .alert:
        return .none

      case .delegate:
        return .none

      case .endWalkButtonTapped:
        let (walked, planned) = (state.secondsElapsed / 60, state.hike.minutes)
        state.alert = AlertState {
          TextState("End the walk?")
        } actions: {
          ButtonState(action: .confirmSave) { TextState("Save and end") }
          ButtonState(role: .destructive, action: .confirmDiscard) { TextState("Discard") }
          ButtonState(role: .cancel) { TextState("Keep walking") }
        } message: {
          TextState("You have walked \(walked) of \(planned) minutes.")
        }
        return .none

      case .onTask:
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer)

      case .timerTicked:
        guard state.alert == nil else { return .none }
        state.secondsElapsed += 1
        if state.secondsElapsed.isMultiple(of: max(1, state.secondsPerWaypoint)),
          state.waypointIndex < state.hike.waypoints.count - 1
        {
          state.waypointIndex += 1
        }
        return state.secondsElapsed >= state.secondsPlanned ? self.finish(state) : .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
  }

  private func finish(_ state: State) -> Effect<Action> {
    let walk = Walk(id: self.uuid(), date: self.now, secondsWalked: state.secondsElapsed)
    return .merge(
      .cancel(id: CancelID.timer),
      .run { send in
        await send(.delegate(.saveWalk(walk)))
        await self.dismiss()
      }
    )
  }
}
