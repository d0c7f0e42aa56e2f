import Architecture

/// One hike, pushed from the list: edit it in a sheet, delete it after an alert (it then pops
/// itself), or start walking it.
struct HikeDetail: Reducer {
  struct State: Equatable {
    @PresentationState var destination: Destination.State?
    var hike: Hike
  }

  enum Action: Equatable {
    case cancelEditButtonTapped
    case delegate(Delegate)
    case deleteButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case doneEditingButtonTapped
    case editButtonTapped
    case startWalkButtonTapped

    enum Delegate: Equatable {
      case deleteHike
      case hikeUpdated(Hike)
      case startWalk(Hike)
    }
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case alert(AlertState<Action.Alert>)
      case edit(HikeForm.State)
    }

    enum Action: Equatable {
      case alert(Alert)
      case edit(HikeForm.Action)

      enum Alert: Equatable {
        case confirmDeletion
        case confirmWalkWithoutWaypoints
      }
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.edit, action: /Action.edit) {
        HikeForm()
      }
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelEditButtonTapped:
        state.destination = nil
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped:
        state.destination = .alert(.deleteHike(named: state.hike.title))
        return .none

      case .destination(.presented(.alert(.confirmDeletion))):
        return .run { send in
          await send(.delegate(.deleteHike), animation: .default)
          await self.dismiss()
        }

      case .destination(.presented(.alert(.confirmWalkWithoutWaypoints))):
        return .send(.delegate(.startWalk(state.hike)))

      case .destination:
        return .none

      case .doneEditingButtonTapped:
        guard case let .edit(form) = state.destination else { return .none }
        state.hike = form.hike
        state.destination = nil
        return .none

      case .editButtonTapped:
        state.destination = .edit(HikeForm.State(hike: state.hike))
        return .none

      case .startWalkButtonTapped:
        guard state.hike.waypoints.contains(where: { !$0.name.isEmpty }) else {
          state.destination = .alert(.noWaypoints)
          return .none
        }
        return .send(.delegate(.startWalk(state.hike)))
      }
    }
    .ifLet(\.$destination, action: /Action.destination) {
      Destination()
    }
    .onChange(of: \.hike) { _, hike in
      Reduce { _, _ in .send(.delegate(.hikeUpdated(hike))) }
    }
  }
}

extension AlertState where Action == HikeDetail.Destination.Action.Alert {
  static func deleteHike(named title: String) -> Self {
    AlertState {
      TextState("Delete \(title.isEmpty ? "this hike" : title)?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Keep it") }
    } message: {
      TextState("Its walks are deleted with it.")
    }
  }

  static var noWaypoints: Self {
    AlertState {
      TextState("No named waypoints")
    } actions: {
      ButtonState(action: .confirmWalkWithoutWaypoints) { TextState("Walk anyway") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("Name a waypoint so the walk can announce it.")
    }
  }
}
