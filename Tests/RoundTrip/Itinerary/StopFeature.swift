import Architecture
import Foundation

/// A stop on the planner's stack: it looks up a travel-time estimate on a clock, can count
/// down to departure, and asks, in an alert of its own, before removing itself.
public struct StopFeature: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var place: String
    public var minutes: Int?
    public var countdown = 0
    @PresentationState public var alert: AlertState<Action.Alert>?

    public init(place: String) { self.place = place }
  }

  public enum Action: Equatable, Codable, Sendable {
    case alert(PresentationAction<Alert>)
    case countdownButtonTapped
    case estimateLoaded(Int)
    case removeButtonTapped
    case ticked

    public enum Alert: Equatable, Codable, Sendable {
      case confirmRemoval
      case keep
    }
  }

  enum CancelID { case countdown, estimate }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .countdownButtonTapped:
        state.countdown = 3
        return .merge(
          .run { send in
            for await _ in clock.timer(interval: .seconds(1)) { await send(.ticked) }
          }
          .cancellable(id: CancelID.countdown, cancelInFlight: true),
          .run { [place = state.place] send in
            try await clock.sleep(for: .milliseconds(500))
            await send(.estimateLoaded(place.count * 7))
          }
          .cancellable(id: CancelID.estimate)
        )
      case .estimateLoaded(let minutes):
        state.minutes = minutes
        // Reduced from the estimate's own effect: the id must still reach it.
        return .cancel(id: CancelID.estimate)
      case .ticked:
        state.countdown -= 1
        return state.countdown == 0 ? .cancel(id: CancelID.countdown) : .none
      case .removeButtonTapped:
        state.alert = AlertState {
          TextState("Remove \(state.place)?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmRemoval) { TextState("Remove") }
          ButtonState(role: .cancel, action: .keep) { TextState("Keep") }
        }
        return .none
      case .alert(.presented(.confirmRemoval)):
        return .run { _ in await dismiss() }
      case .alert:
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
  }
}
