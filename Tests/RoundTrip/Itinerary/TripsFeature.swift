import Architecture
import Foundation

/// A trip planner: the shape of navigation no example has. A sheet holds a navigation stack
/// (the planner and its stops), each stop can raise an alert of its own, and the root's phase
/// is an enum whose `syncing` case runs a child feature (`ifCaseLet`).
public struct TripsFeature: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var trips: IdentifiedArrayOf<Trip> = []
    @PresentationState public var planner: PlannerFeature.State?
    public var phase = Phase.browsing

    public init() {}
  }

  /// What the root is doing: browsing its trips, or syncing them.
  public enum Phase: Equatable, Codable, Sendable {
    case browsing
    case syncing(SyncFeature.State)
  }

  public enum Action: Equatable, Codable, Sendable {
    case phase(PhaseAction)
    case planButtonTapped
    case planner(PresentationAction<PlannerFeature.Action>)
    case syncButtonTapped
  }

  public enum PhaseAction: Equatable, Codable, Sendable {
    case syncing(SyncFeature.Action)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.phase, action: /Action.phase) {
      Reduce { _, _ in .none }
        .ifCaseLet(/Phase.syncing, action: /PhaseAction.syncing) { SyncFeature() }
    }
    Reduce { state, action in
      switch action {
      case .planButtonTapped:
        state.planner = PlannerFeature.State(id: uuid())
        return .none
      case .planner(.presented(.delegate(.saved(let trip)))):
        state.trips.append(trip)
        return .none
      case .phase(.syncing(.delegate(.finished(let count)))):
        for id in state.trips.ids.prefix(count) { state.trips[id: id]?.isSynced = true }
        state.phase = .browsing
        return .none
      case .syncButtonTapped:
        state.phase = .syncing(SyncFeature.State(total: state.trips.count))
        return .send(.phase(.syncing(.start)))
      case .phase, .planner:
        return .none
      }
    }
    .ifLet(\.$planner, action: /Action.planner) { PlannerFeature() }
  }
}

/// A planned trip.
public struct Trip: Equatable, Codable, Identifiable, Sendable {
  public var id: UUID
  public var name: String
  public var stops: [String]
  public var isSynced = false
}
