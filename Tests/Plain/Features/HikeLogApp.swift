import Architecture

/// The hiking app's root: the list of hikes under a navigation stack of details and walks, and
/// the hikes saved a second after they stop changing (a failed save says why).
struct HikeLogApp: Reducer {
  struct State: Equatable {
    var list = HikeList.State()
    var path = StackState<Path.State>()
    var saveError: String?
  }

  enum Action: Equatable {
    case list(HikeList.Action)
    case path(StackAction<Path.State, Path.Action>)
    case saveFailed(String)
  }

  struct Path: Reducer {
    enum State: Equatable {
      case detail(HikeDetail.State)
      case walk(TrailWalk.State)
    }

    enum Action: Equatable {
      case detail(HikeDetail.Action)
      case walk(TrailWalk.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.detail, action: /Action.detail) {
        HikeDetail()
      }
      Scope(state: /State.walk, action: /Action.walk) {
        TrailWalk()
      }
    }
  }

  enum CancelID { case save }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.hikeStore.save) var save

  var body: some ReducerOf<Self> {
    // Combined, so that a change the list makes itself (an added hike) is saved too.
    CombineReducers {
      Scope(state: \.list, action: /Action.list) {
        HikeList()
      }
      Reduce { state, action in
        switch action {
        case let .list(.hikeTapped(id)):
          guard let hike = state.list.hikes[id: id] else { return .none }
          state.path.append(.detail(HikeDetail.State(hike: hike)))
          return .none

        case .list:
          return .none

        case let .path(.element(id: id, action: .detail(.delegate(delegate)))):
          guard case let .detail(detail)? = state.path[id: id] else { return .none }
          switch delegate {
          case .deleteHike:
            state.list.hikes.remove(id: detail.hike.id)
          case let .hikeUpdated(hike):
            state.list.hikes[id: hike.id] = hike
          case let .startWalk(hike):
            state.path.append(.walk(TrailWalk.State(hike: hike)))
          }
          return .none

        case let .path(.element(id: id, action: .walk(.delegate(.saveWalk(walk))))):
          guard case let .walk(walkState)? = state.path[id: id] else { return .none }
          state.list.hikes[id: walkState.hike.id]?.walks.insert(walk, at: 0)
          // The detail under the walk shows the new walk too.
          guard let detailID = state.path.ids.dropLast().last,
            case var .detail(detail)? = state.path[id: detailID]
          else { return .none }
          detail.hike.walks.insert(walk, at: 0)
          state.path[id: detailID] = .detail(detail)
          return .none

        case .path:
          return .none

        case let .saveFailed(message):
          state.saveError = message
          return .none
        }
      }
      .forEach(\.path, action: /Action.path) {
        Path()
      }
    }
    .onChange(of: \.list.hikes) { _, hikes in
      Reduce { state, _ in
        state.saveError = nil
        return .run { _ in
          try await self.clock.sleep(for: .seconds(1))
          try await self.save(Array(hikes))
        } catch: { error, send in
          await send(.saveFailed(error.localizedDescription))
        }
        .cancellable(id: CancelID.save, cancelInFlight: true)
      }
    }
  }
}
