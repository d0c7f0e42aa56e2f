import Architecture
import Foundation

/// A stopwatch row in the app's list of timers, each ticking on its own.
///
/// Its tick effect is long-living and cancellable by one id shared by every row: `forEach`
/// scopes the id to the row, so stopping one row stops only that row, and removing a row from
/// the list cancels its ticks.
public struct TimerRow: Reducer, Sendable {
  /// One timer: how long it has run and whether it is running.
  public struct State: Equatable, Codable, Sendable, Identifiable {
    public let id: UUID
    public var name: String
    public var secondsElapsed: Int
    public var isRunning: Bool

    public init(id: UUID, name: String, secondsElapsed: Int = 0, isRunning: Bool = false) {
      self.id = id
      self.name = name
      self.secondsElapsed = secondsElapsed
      self.isRunning = isRunning
    }
  }

  /// The row's buttons and its clock.
  public enum Action: Equatable, Codable, Sendable {
    case startButtonTapped
    case stopButtonTapped
    case tick
  }

  enum CancelID { case tick }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        guard !state.isRunning else { return .none }
        state.isRunning = true
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.tick)

      case .stopButtonTapped:
        state.isRunning = false
        return .cancel(id: CancelID.tick)

      case .tick:
        state.secondsElapsed += 1
        return .none
      }
    }
  }
}
