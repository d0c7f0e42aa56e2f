import Architecture
import Foundation

/// One bike on the bench: a mechanic's timer counts the minutes worked, done hands it back.
struct RepairTicket: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var owner: String
    var bike: String
    var minutesWorked = 0
    var isTimerRunning = false
    var isDone = false
  }

  enum Action: Equatable {
    case doneButtonTapped
    case minuteElapsed
    case timerButtonTapped
  }

  private enum CancelID: Hashable {
    case timer(UUID)
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .doneButtonTapped:
        state.isDone = true
        state.isTimerRunning = false
        return .cancel(id: CancelID.timer(state.id))

      case .minuteElapsed:
        state.minutesWorked += 1
        return .none

      case .timerButtonTapped:
        state.isTimerRunning.toggle()
        guard state.isTimerRunning else { return .cancel(id: CancelID.timer(state.id)) }
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(60)) {
            await send(.minuteElapsed)
          }
        }
        .cancellable(id: CancelID.timer(state.id))
      }
    }
  }
}
