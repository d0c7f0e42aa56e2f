import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Hike log")
struct HikeLogTests {
  let ridge = Hike(
    id: UUID(100), minutes: 1, title: "Ridge",
    waypoints: [Waypoint(id: UUID(101), name: "Col"), Waypoint(id: UUID(102), name: "Cairn")]
  )

  @Test("the list's default state reads the saved hikes from the hike store")
  func listLoadsFromStore() {
    let state = withDependencies {
      $0.hikeStore = .inMemory([ridge])
    } operation: {
      HikeLogApp.State()
    }
    #expect(state.list.hikes == [ridge])
    #expect(state.list.destination == nil)
  }

  @Test("a store that cannot be read opens an alert worded by the error, which can start afresh")
  func loadFailure() async {
    let state = withDependencies {
      $0.hikeStore.load = { throw HikeStoreError() }
    } operation: {
      HikeList.State()
    }
    let store = TestStore(initialState: state) {
      HikeList()
    }

    #expect(store.state.destination == .alert(.loadFailed(HikeStoreError())))
    if case let .alert(alert)? = store.state.destination {
      #expect(alert.message == TextState("The saved hikes are damaged."))
    }
    await store.send(.destination(.presented(.alert(.startAfresh)))) {
      $0.destination = nil
    }
  }

  @Test("adding a hike through the sheet drops blank waypoints and appends it")
  func addHike() async {
    let store = TestStore(initialState: withDependencies {
      $0.hikeStore = .inMemory()
    } operation: { HikeList.State() }) {
      HikeList()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.addHikeButtonTapped) {
      $0.destination = .add(
        HikeForm.State(
          hike: Hike(id: UUID(0), waypoints: [Waypoint(id: UUID(1), name: "Trailhead")])
        )
      )
    }
    await store.send(.destination(.presented(.add(.addWaypointButtonTapped)))) {
      XCTModify(&$0.destination, case: /HikeList.Destination.State.add) {
        $0.hike.waypoints.append(Waypoint(id: UUID(2)))
        $0.focus = .waypoint(UUID(2))
      }
    }
    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.hikes = [
        Hike(id: UUID(0), waypoints: [Waypoint(id: UUID(1), name: "Trailhead")])
      ]
    }
  }

  @Test("deleting waypoints by IndexSet keeps one and moves the focus")
  func deleteWaypoints() async {
    let store = TestStore(initialState: HikeForm.State(hike: ridge)) {
      HikeForm()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.deleteWaypoints(atOffsets: [0])) {
      $0.hike.waypoints.remove(id: UUID(101))
      $0.focus = .waypoint(UUID(102))
    }
    await store.send(.deleteWaypoints(atOffsets: [0])) {
      $0.hike.waypoints = [Waypoint(id: UUID(0), name: "Trailhead")]
      $0.focus = .waypoint(UUID(0))
    }
  }

  @Test("tapping a hike pushes its detail; editing it updates the list")
  func drillDownAndEdit() async {
    let store = TestStore(
      initialState: withDependencies { $0.hikeStore = .inMemory([ridge]) } operation: {
        HikeLogApp.State()
      }
    ) {
      HikeLogApp()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
      $0.hikeStore.save = { _ in }
    }

    await store.send(.list(.hikeTapped(ridge.id))) {
      $0.path[id: 0] = .detail(HikeDetail.State(hike: ridge))
    }
    await store.send(.path(.element(id: 0, action: .detail(.editButtonTapped)))) {
      $0.path[id: 0, case: /HikeLogApp.Path.State.detail]?.destination = .edit(
        HikeForm.State(hike: ridge)
      )
    }
    var renamed = ridge
    renamed.title = "Ridge and tarn"
    let edit = HikeDetail.Action.destination(.presented(.edit(.set(\.$hike, renamed))))
    await store.send(.path(.element(id: 0, action: .detail(edit)))) {
      $0.path[id: 0, case: /HikeLogApp.Path.State.detail]?.destination = .edit(
        HikeForm.State(hike: renamed)
      )
    }
    await store.send(.path(.element(id: 0, action: .detail(.doneEditingButtonTapped)))) {
      $0.path[id: 0, case: /HikeLogApp.Path.State.detail]?.destination = nil
      $0.path[id: 0, case: /HikeLogApp.Path.State.detail]?.hike = renamed
    }
    await store.receive(.path(.element(id: 0, action: .detail(.delegate(.hikeUpdated(renamed)))))) {
      $0.list.hikes[id: ridge.id] = renamed
    }
  }

  @Test("deleting from the detail removes the hike and pops the detail")
  func deleteFromDetail() async {
    let store = TestStore(
      initialState: withDependencies { $0.hikeStore = .inMemory([ridge]) } operation: {
        HikeLogApp.State(path: StackState([.detail(HikeDetail.State(hike: ridge))]))
      }
    ) {
      HikeLogApp()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
      $0.hikeStore.save = { _ in }
    }

    await store.send(.path(.element(id: 0, action: .detail(.deleteButtonTapped)))) {
      $0.path[id: 0, case: /HikeLogApp.Path.State.detail]?.destination = .alert(
        .deleteHike(named: "Ridge")
      )
    }
    await store.send(
      .path(.element(id: 0, action: .detail(.destination(.presented(.alert(.confirmDeletion))))))
    ) {
      $0.path[id: 0, case: /HikeLogApp.Path.State.detail]?.destination = nil
    }
    await store.receive(.path(.element(id: 0, action: .detail(.delegate(.deleteHike))))) {
      $0.list.hikes = []
    }
    await store.receive(.path(.popFrom(id: 0))) {
      $0.path = StackState()
    }
  }

  @Test("hikes are saved a second after they change; a failed save shows its description")
  func saveFailure() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: withDependencies { $0.hikeStore = .inMemory([ridge]) } operation: {
        HikeLogApp.State()
      }
    ) {
      HikeLogApp()
    } withDependencies: {
      $0.continuousClock = clock
      $0.hikeStore.save = { _ in throw HikeStoreError() }
      $0.uuid = .incrementing
    }

    await store.send(.list(.addHikeButtonTapped)) {
      $0.list.destination = .add(
        HikeForm.State(
          hike: Hike(id: UUID(0), waypoints: [Waypoint(id: UUID(1), name: "Trailhead")])
        )
      )
    }
    await store.send(.list(.confirmAddButtonTapped)) {
      $0.list.destination = nil
      $0.list.hikes.append(
        Hike(id: UUID(0), waypoints: [Waypoint(id: UUID(1), name: "Trailhead")])
      )
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saveFailed("The saved hikes are damaged.")) {
      $0.saveError = "The saved hikes are damaged."
    }
  }

  @Test("a walk counts down the planned minutes, then saves itself and pops")
  func walkToTheEnd() async {
    let clock = TestClock()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var short = ridge
    short.minutes = 1
    let store = TestStore(
      initialState: withDependencies { $0.hikeStore = .inMemory([short]) } operation: {
        HikeLogApp.State(
          path: StackState([
            .detail(HikeDetail.State(hike: short)), .walk(TrailWalk.State(hike: short)),
          ])
        )
      }
    ) {
      HikeLogApp()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.uuid = .incrementing
      $0.hikeStore.save = { _ in }
    }
    store.exhaustivity = .off

    await store.send(.path(.element(id: 1, action: .walk(.onTask))))
    for _ in 1...60 {
      await clock.advance(by: .seconds(1))
      await store.receive(.path(.element(id: 1, action: .walk(.timerTicked))))
    }
    let walk = Walk(id: UUID(0), date: now, secondsWalked: 60)
    await store.receive(.path(.element(id: 1, action: .walk(.delegate(.saveWalk(walk)))))) {
      $0.list.hikes[id: short.id]?.walks = [walk]
      $0.path[id: 0, case: /HikeLogApp.Path.State.detail]?.hike.walks = [walk]
    }
    await store.receive(.path(.popFrom(id: 1)))
    #expect(store.state.path.ids == [0])
    await clock.advance(by: .seconds(1))
  }

  @Test("ending a walk early asks first; discarding pops without saving")
  func endEarlyDiscard() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: HikeLogApp.State(
        list: withDependencies { $0.hikeStore = .inMemory([ridge]) } operation: {
          HikeList.State()
        },
        path: StackState([.walk(TrailWalk.State(hike: ridge))])
      )
    ) {
      HikeLogApp()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.exhaustivity = .off

    await store.send(.path(.element(id: 0, action: .walk(.onTask))))
    await clock.advance(by: .seconds(1))
    await clock.advance(by: .seconds(1))
    await store.send(.path(.element(id: 0, action: .walk(.endWalkButtonTapped))))
    await store.send(.path(.element(id: 0, action: .walk(.alert(.presented(.confirmDiscard))))))
    await store.receive(.path(.popFrom(id: 0))) {
      $0.path = StackState()
    }
    #expect(store.state.list.hikes[id: ridge.id]?.walks == [])
  }
}
