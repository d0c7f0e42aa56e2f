import Architecture

/// The form that creates or edits a hike: its title, length and waypoints, with the focus
/// following what the hiker is typing.
struct HikeForm: Reducer {
  enum Field: Equatable, Hashable {
    case title
    case waypoint(Waypoint.ID)
  }

  struct State: Equatable {
    @BindingState var focus: Field? = .title
    @BindingState var hike: Hike

    init(focus: Field? = .title, hike: Hike) {
      self.focus = focus
      self.hike = hike
      if self.hike.waypoints.isEmpty {
        @Dependency(\.uuid) var uuid
        self.hike.waypoints.append(Waypoint(id: uuid(), name: "Trailhead"))
      }
    }
  }

  enum Action: BindableAction, Equatable {
    case addWaypointButtonTapped
    case binding(BindingAction<State>)
    case deleteWaypoints(atOffsets: IndexSet)
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addWaypointButtonTapped:
        let waypoint = Waypoint(id: self.uuid())
        state.hike.waypoints.append(waypoint)
        state.focus = .waypoint(waypoint.id)
        return .none

      case .binding:
        return .none

      case let .deleteWaypoints(atOffsets: indices):
        state.hike.waypoints.remove(atOffsets: indices)
        if state.hike.waypoints.isEmpty {
          state.hike.waypoints.append(Waypoint(id: self.uuid(), name: "Trailhead"))
        }
        guard let first = indices.first else { return .none }
        let index = min(first, state.hike.waypoints.count - 1)
        state.focus = .waypoint(state.hike.waypoints[index].id)
        return .none
      }
    }
  }
}
