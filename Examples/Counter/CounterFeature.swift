import Architecture

/// The counter of the TCA tutorial: a count, a fact about the number, and a timer.
///
/// It is the smallest feature that has every kind of effect a recorder must follow: a request
/// that can fail, a long-living timer and its cancellation.
public struct CounterFeature: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var count = 0
    public var fact: String?
    public var factError: String?
    public var isLoading = false
    public var isTimerRunning = false

    public init(count: Int = 0) {
      self.count = count
    }
  }

  public enum Action: Equatable, Codable, Sendable {
    case decrementButtonTapped
    case factButtonTapped
    case factResponse(String)
    case factRequestFailed(String)
    case incrementButtonTapped
    case resetButtonTapped
    case timerTick
    case toggleTimerButtonTapped
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.numberFact) var numberFact

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        state.fact = nil
        return .none

      case .factButtonTapped:
        state.fact = nil
        state.factError = nil
        state.isLoading = true
        return .run { [count = state.count] send in
          try await send(.factResponse(numberFact.fetch(count)))
        } catch: { error, send in
          await send(.factRequestFailed("\(error)"))
        }

      case let .factResponse(fact):
        state.fact = fact
        state.isLoading = false
        return .none

      case let .factRequestFailed(message):
        state.factError = message
        state.isLoading = false
        return .none

      case .incrementButtonTapped:
        state.count += 1
        state.fact = nil
        return .none

      case .resetButtonTapped:
        state.count = 0
        state.fact = nil
        return .none

      case .timerTick:
        state.count += 1
        state.fact = nil
        return .none

      case .toggleTimerButtonTapped:
        state.isTimerRunning.toggle()
        if state.isTimerRunning {
          return .run { send in
            for await _ in clock.timer(interval: .seconds(1)) {
              await send(.timerTick)
            }
          }
          .cancellable(id: CancelID.timer)
        } else {
          return .cancel(id: CancelID.timer)
        }
      }
    }
  }
}
