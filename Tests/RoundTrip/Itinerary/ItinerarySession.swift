import Architecture

/// A scripted session of the trip planner, played one action at a time on `clock`:
/// trips planned in the sheet with stops pushed on its stack, estimates and countdowns that
/// end from their own effects, a stop removed through its alert (kept once first), a stop
/// popped mid-countdown, a sheet dismissed mid-countdown, and a sync through `ifCaseLet`.
///
/// `send` sends an action and waits for its effects to finish or sleep; `advance` moves the
/// clock and waits again.
@MainActor
public func playItinerarySession(
  state: () -> TripsFeature.State,
  send: (TripsFeature.Action) async -> Void,
  advance: (Duration) async -> Void
) async {
  func stop(_ id: StackElementID, _ action: StopFeature.Action) async {
    await send(.planner(.presented(.path(.element(id: id, action: action)))))
  }
  for (name, places) in [("Coast", ["Porto", "Aveiro", "Nazaré"]), ("Alps", ["Annecy", "Chamonix", "Zermatt"])] {
    await send(.planButtonTapped)
    await send(.planner(.presented(.nameChanged(name))))
    for place in places { await send(.planner(.presented(.addStopButtonTapped(place)))) }
    let ids = state().planner!.path.ids
    // The estimate arrives at 0.5 s and cancels itself; the countdown ends itself at 3 s.
    await stop(ids[0], .countdownButtonTapped)
    await advance(.milliseconds(500))
    for _ in 0..<3 { await advance(.seconds(1)) }
    // The last stop asks before it goes: kept once, then removed, which pops it.
    await stop(ids[2], .removeButtonTapped)
    await stop(ids[2], .alert(.presented(.keep)))
    await stop(ids[2], .removeButtonTapped)
    await stop(ids[2], .alert(.presented(.confirmRemoval)))
    // Popped mid-countdown: the pop cancels its timer.
    await stop(ids[1], .countdownButtonTapped)
    await advance(.seconds(1))
    await send(.planner(.presented(.path(.popFrom(id: ids[1])))))
    await send(.planner(.presented(.saveButtonTapped)))
  }
  // A sheet dismissed while one of its stops counts down.
  await send(.planButtonTapped)
  await send(.planner(.presented(.addStopButtonTapped("Lyon"))))
  await stop(state().planner!.path.ids[0], .countdownButtonTapped)
  await advance(.seconds(1))
  await send(.planner(.dismiss))
  // Syncing, one trip a second, until the sync ends itself and the phase returns to browsing.
  await send(.syncButtonTapped)
  for _ in state().trips { await advance(.seconds(1)) }
}
