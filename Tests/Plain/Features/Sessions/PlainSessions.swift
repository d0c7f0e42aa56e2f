import Architecture

/// Every feature of the corpus with its session, and the runner that plays one.
///
/// To play them all through a wrapper of the root reducer, open each session in a generic
/// function:
///
/// ```swift
/// func record<S: PlainSession>(_ session: S.Type) async {
///   await PlainSessions.run(session) { $0.recording(to: recorder) }
/// }
/// for session in PlainSessions.all { await record(session) }
/// ```
@MainActor
enum PlainSessions {
  /// The table: one entry per feature, in the README's order.
  static let all: [any PlainSession.Type] = [
    GreenhouseSession.self,
    ParkingMeterSession.self,
    BirdLogSession.self,
    ChoreListSession.self,
    TideSearchSession.self,
    HikeLogSession.self,
    FieldNotesSession.self,
    ArcadeSession.self,
    PodcastShelfSession.self,
    GardenPlannerSession.self,
    PantryTabsSession.self,
  ]

  /// The outcome of one session: the store's last state and what the driver waited for in
  /// vain (nothing, when it completed).
  struct Outcome<State> {
    var finalState: State
    var stalls: [String]
  }

  /// Plays `session` on a plain `Store` of its root reducer wrapped by `wrap`, with a test
  /// clock, incrementing stack ids and the session's own dependencies.
  @discardableResult
  static func run<S: PlainSession, Wrapped: Reducer>(
    _ session: S.Type,
    wrapping wrap: (S.Feature) -> Wrapped
  ) async -> Outcome<S.Feature.State>
  where Wrapped.State == S.Feature.State, Wrapped.Action == S.Feature.Action {
    let clock = TestClock()
    let store = Store(initialState: S.makeInitialState()) {
      wrap(S.makeReducer())
    } withDependencies: {
      $0.continuousClock = clock
      // Its own generator: the default one is shared by the process's stores.
      $0.stackElementID = .incrementing()
      S.prepareDependencies(&$0)
    }
    let driver = PlainDriver(store: store, clock: clock)
    await S.drive(driver)
    await driver.settle()
    return Outcome(finalState: store.state, stalls: driver.stalls)
  }

  /// Plays `session` on its root reducer as it is.
  @discardableResult
  static func run<S: PlainSession>(_ session: S.Type) async -> Outcome<S.Feature.State> {
    await run(session) { $0 }
  }
}
