import Architecture

/// Starts from one saved hike, adds another through the sheet (its save fails: the disk is
/// full), drills into it, edits it, walks it (ended early and saved), pops a detail by hand, and
/// deletes a hike from its detail.
enum HikeLogSession: PlainSession {
  static let name = "Hike log"
  static func makeReducer() -> HikeLogApp { HikeLogApp() }
  static func makeInitialState() -> HikeLogApp.State { HikeLogApp.State() }

  static let ridgeLoop = Hike(
    id: UUID(1_000), minutes: 90, title: "Ridge loop",
    waypoints: [Waypoint(id: UUID(1_001), name: "Col"), Waypoint(id: UUID(1_002), name: "Cairn")]
  )

  static func prepareDependencies(_ dependencies: inout DependencyValues) {
    dependencies.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
    dependencies.hikeStore = .inMemory([ridgeLoop])
    // The first save finds the disk full: a Foundation error, not one of the app's.
    let saves = LockIsolated(0)
    let save = dependencies.hikeStore.save
    dependencies.hikeStore.save = { hikes in
      saves.withValue { $0 += 1 }
      if saves.value == 1 { throw CocoaError(.fileWriteOutOfSpace) }
      try await save(hikes)
    }
    dependencies.uuid = .incrementing
  }

  static func drive(_ driver: PlainDriver<HikeLogApp.State, HikeLogApp.Action>) async {
    // A new hike through the sheet: titled, a waypoint added and named, the blank one deleted.
    await driver.send(.list(.addHikeButtonTapped))
    await editForm(driver) { $0.title = "Estuary walk"; $0.minutes = 2 }
    await driver.send(.list(.destination(.presented(.add(.addWaypointButtonTapped)))))
    await editForm(driver) { $0.waypoints[1].name = "Ferry steps" }
    await driver.send(.list(.destination(.presented(.add(.deleteWaypoints(atOffsets: [0]))))))
    await driver.send(.list(.confirmAddButtonTapped))
    await driver.advance(by: .seconds(1))

    // Drill into it, lengthen it in the edit sheet, and walk it for a few seconds.
    guard let estuary = driver.state.list.hikes.last else { return }
    await driver.send(.list(.hikeTapped(estuary.id)))
    guard let detailID = driver.state.path.ids.last else { return }
    await driver.send(.path(.element(id: detailID, action: .detail(.editButtonTapped))))
    if case let .detail(detail)? = driver.state.path[id: detailID],
      case var .edit(form)? = detail.destination
    {
      form.hike.minutes = 3
      let edit = HikeDetail.Action.destination(.presented(.edit(.set(\.$hike, form.hike))))
      await driver.send(.path(.element(id: detailID, action: .detail(edit))))
    }
    await driver.send(.path(.element(id: detailID, action: .detail(.doneEditingButtonTapped))))
    await driver.send(.path(.element(id: detailID, action: .detail(.startWalkButtonTapped))))
    guard let walkID = driver.state.path.ids.last else { return }
    await driver.send(.path(.element(id: walkID, action: .walk(.onTask))))
    await driver.advance(by: .seconds(4))
    await driver.send(.path(.element(id: walkID, action: .walk(.endWalkButtonTapped))))
    await driver.advance(by: .seconds(1))
    await driver.send(.path(.element(id: walkID, action: .walk(.alert(.dismiss)))))
    await driver.advance(by: .seconds(2))
    await driver.send(.path(.element(id: walkID, action: .walk(.endWalkButtonTapped))))
    await driver.send(.path(.element(id: walkID, action: .walk(.alert(.presented(.confirmSave))))))
    await driver.send(.path(.popFrom(id: detailID)))
    // The walk's save, a second later: a save still pending when the deletion's save cancels it
    // would end before or after the deletion's pop, whichever the scheduler runs first.
    await driver.advance(by: .seconds(1))

    // The saved hike: opened, delete cancelled, then deleted, which pops its detail.
    await driver.send(.list(.hikeTapped(ridgeLoop.id)))
    guard let ridgeID = driver.state.path.ids.last else { return }
    await driver.send(.path(.element(id: ridgeID, action: .detail(.deleteButtonTapped))))
    await driver.send(.path(.element(id: ridgeID, action: .detail(.destination(.dismiss)))))
    await driver.send(.path(.element(id: ridgeID, action: .detail(.deleteButtonTapped))))
    let confirm = HikeDetail.Action.destination(.presented(.alert(.confirmDeletion)))
    await driver.send(.path(.element(id: ridgeID, action: .detail(confirm))))
    await driver.advance(by: .seconds(1))
  }

  /// Edits the add sheet's hike as its fields would, one binding for the whole hike.
  private static func editForm(
    _ driver: PlainDriver<HikeLogApp.State, HikeLogApp.Action>, _ edit: (inout Hike) -> Void
  ) async {
    guard case var .add(form)? = driver.state.list.destination else { return }
    edit(&form.hike)
    await driver.send(.list(.destination(.presented(.add(.set(\.$hike, form.hike))))))
  }
}
