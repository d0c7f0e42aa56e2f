import Architecture

/// An interval timer: rounds of work then rest, ticking once a second, pausable, and reporting
/// to its parent when the last round is done.
struct IntervalWorkout: Reducer {
  struct State: Equatable {
    var currentRound = 1
    var isRunning = false
    var phase: Phase = .idle
    var restSeconds = 10
    var rounds = 3
    var secondsRemaining = 0
    var workSeconds = 20
  }

  enum Phase: Equatable {
    case done
    case idle
    case rest
    case work
  }

  enum Action: Equatable {
    case delegate(Delegate)
    case pauseButtonTapped
    case resetButtonTapped
    case startButtonTapped
    case timerTicked

    enum Delegate: Equatable {
      case completed(rounds: Int)
    }
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .delegate:
        return .none

      case .pauseButtonTapped:
        state.isRunning = false
        return .cancel(id: CancelID.timer)

      case .resetButtonTapped:
        state.currentRound = 1
        state.isRunning = false
        state.phase = .idle
        state.secondsRemaining = 0
        return .cancel(id: CancelID.timer)

      case .startButtonTapped:
        guard !state.isRunning else { return .none }
        if state.phase == .idle || state.phase == .done {
          state.currentRound = 1
          state.phase = .work
          state.secondsRemaining = state.workSeconds
        }
        state.isRunning = true
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)

      case .timerTicked:
        state.secondsRemaining -= 1
        guard state.secondsRemaining <= 0 else { return .none }
        switch state.phase {
        case .work where state.currentRound == state.rounds:
          state.phase = .done
          state.isRunning = false
          return .merge(
            .cancel(id: CancelID.timer),
            .send(.delegate(.completed(rounds: state.rounds)))
          )
        case .work:
          state.phase = .rest
          state.secondsRemaining = state.restSeconds
        case .rest:
          state.currentRound += 1
          state.phase = .work
          state.secondsRemaining = state.workSeconds
        case .done, .idle:
          break
        }
        return .none
      }
    }
  }
}
