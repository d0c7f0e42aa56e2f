import Architecture
import Foundation

/// A morning at the workshop, scripted as a person drives the app: three bikes for a bench of
/// two, a repair timed for three minutes, a quote that succeeds and one that fails, and a paid
/// checkout. It waits for the store's effects after each action, so it records the same trace
/// on every run.
@MainActor
enum WorkshopSession {
  /// The bench the session drives: two bikes at a time, at £30 an hour.
  static let workshop = Workshop(benchSize: 2, hourlyRateInPence: 3_000)

  /// Plays the session on a store whose reducer is the bench passed through `wrap` (a
  /// recording wrapper, in a test).
  static func run<Wrapped: Reducer<Workshop.State, Workshop.Action>>(
    wrapping wrap: (Workshop) -> Wrapped
  ) async {
    let clock = TestClock()
    let store = Store(initialState: Workshop.State()) {
      wrap(workshop)
    } withDependencies: {
      $0.continuousClock = clock
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
      $0.partsCatalog = .liveValue
    }
    func send(_ action: Workshop.Action) async {
      store.send(action)
      await store.settle(sleepingOn: clock)
    }
    let brompton = UUID(0)
    let roadster = UUID(1)
    await send(.bikeDroppedOff(owner: "Ada", bike: "Brompton"))
    await send(.bikeDroppedOff(owner: "Grace", bike: "Dutch roadster"))
    await send(.bikeDroppedOff(owner: "Linus", bike: "fixie"))
    await send(.destination(.dismiss))
    await send(.ticket(id: brompton, action: .timerButtonTapped))
    await clock.advance(by: .seconds(180))
    await store.settle(sleepingOn: clock)
    await send(.ticket(id: brompton, action: .timerButtonTapped))
    await send(.quoteButtonTapped(id: roadster))
    await send(.quote(.partChanged("Chain")))
    await send(.quote(.lookUpButtonTapped))
    await send(.quote(.partChanged("Carbon wheel")))
    await send(.quote(.lookUpButtonTapped))
    await send(.quoteClosed)
    await send(.ticket(id: brompton, action: .doneButtonTapped))
    await send(.destination(.presented(.checkout(.payButtonTapped))))
    await send(.bikeDroppedOff(owner: "Linus", bike: "fixie"))
  }
}
