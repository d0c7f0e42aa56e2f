import Architecture

/// The saved hikes, read from the hike store when the state is made. Adding one opens the form
/// in a sheet; a store that cannot be read says so in an alert.
struct HikeList: Reducer {
  struct State: Equatable {
    @PresentationState var destination: Destination.State?
    var hikes: IdentifiedArrayOf<Hike> = []

    init(destination: Destination.State? = nil) {
      self.destination = destination
      @Dependency(\.hikeStore.load) var load
      do {
        self.hikes = IdentifiedArrayOf(uniqueElements: try load())
      } catch {
        self.destination = .alert(.loadFailed(error))
      }
    }
  }

  enum Action: Equatable {
    case addHikeButtonTapped
    case confirmAddButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case dismissAddButtonTapped
    case hikeTapped(Hike.ID)
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case add(HikeForm.State)
      case alert(AlertState<Action.Alert>)
    }

    enum Action: Equatable {
      case add(HikeForm.Action)
      case alert(Alert)

      enum Alert: Equatable {
        case startAfresh
      }
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.add, action: /Action.add) {
        HikeForm()
      }
    }
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addHikeButtonTapped:
        state.destination = .add(HikeForm.State(hike: Hike(id: self.uuid())))
        return .none

      case .confirmAddButtonTapped:
        guard case var .add(form) = state.destination else { return .none }
        form.hike.waypoints.removeAll { $0.name.allSatisfy(\.isWhitespace) }
        state.hikes.append(form.hike)
        state.destination = nil
        return .none

      case .destination(.presented(.alert(.startAfresh))):
        state.hikes = []
        return .none

      case .destination:
        return .none

      case .dismissAddButtonTapped:
        state.destination = nil
        return .none

      case .hikeTapped:
        return .none
      }
    }
    .ifLet(\.$destination, action: /Action.destination) {
      Destination()
    }
  }
}

extension AlertState where Action == HikeList.Destination.Action.Alert {
  static func loadFailed(_ error: Error) -> Self {
    AlertState {
      TextState("Your hikes could not be loaded")
    } actions: {
      ButtonState(role: .destructive, action: .startAfresh) { TextState("Start afresh") }
    } message: {
      TextState(error.localizedDescription)
    }
  }
}
