import Architecture
import Foundation

/// The sheet: a trip's name and a stack of stops, pushed one after another.
public struct PlannerFeature: Reducer, Sendable {
  public struct State: Equatable, Codable, Identifiable, Sendable {
    public var id: UUID
    public var name = ""
    public var path = StackState<StopFeature.State>()

    public init(id: UUID) { self.id = id }
  }

  public enum Action: Equatable, Codable, Sendable {
    case addStopButtonTapped(String)
    case delegate(Delegate)
    case nameChanged(String)
    case path(StackAction<StopFeature.State, StopFeature.Action>)
    case saveButtonTapped

    public enum Delegate: Equatable, Codable, Sendable {
      case saved(Trip)
    }
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addStopButtonTapped(let place):
        state.path.append(StopFeature.State(place: place))
        return .none
      case .nameChanged(let name):
        state.name = name
        return .none
      case .saveButtonTapped:
        let trip = Trip(id: state.id, name: state.name, stops: state.path.map(\.place))
        return .run { send in
          await send(.delegate(.saved(trip)))
          await dismiss()
        }
      case .delegate, .path:
        return .none
      }
    }
    .forEach(\.path, action: /Action.path) { StopFeature() }
  }
}
