import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Chore list")
struct ChoreListTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func chore(_ n: Int, _ title: String, done: Bool = false) -> Chore.State {
    Chore.State(id: UUID(n), addedAt: now, isDone: done, title: title)
  }

  @Test("adding puts a chore first, with its id and date from dependencies")
  func add() async {
    let store = TestStore(initialState: ChoreList.State(chores: [chore(9, "Bins out")])) {
      ChoreList()
    } withDependencies: {
      $0.date = .constant(now)
      $0.uuid = .incrementing
    }

    await store.send(.addChoreButtonTapped) {
      $0.chores.insert(Chore.State(id: UUID(0), addedAt: now), at: 0)
    }
  }

  @Test("ticking chores off sorts them down once, a second after the last tick")
  func sortAfterPause() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: ChoreList.State(chores: [chore(0, "A"), chore(1, "B"), chore(2, "C")])
    ) {
      ChoreList()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.chore(id: UUID(0), action: .set(\.$isDone, true))) {
      $0.chores[id: UUID(0)]?.isDone = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(.chore(id: UUID(1), action: .set(\.$isDone, true))) {
      $0.chores[id: UUID(1)]?.isDone = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortDoneChores) {
      $0.chores = [chore(2, "C"), chore(0, "A", done: true), chore(1, "B", done: true)]
    }
  }

  @Test("moving by an IndexSet reorders the whole list, then sorts")
  func move() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: ChoreList.State(chores: [chore(0, "A"), chore(1, "B"), chore(2, "C")])
    ) {
      ChoreList()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.set(\.$editMode, .active)) {
      $0.editMode = .active
    }
    await store.send(.move(IndexSet(integer: 0), 3)) {
      $0.chores = [chore(1, "B"), chore(2, "C"), chore(0, "A")]
    }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.sortDoneChores)
  }

  @Test("moving in a filtered list translates visible offsets into the whole list's")
  func moveFiltered() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: ChoreList.State(
        chores: [chore(0, "A", done: true), chore(1, "B"), chore(2, "C", done: true)],
        filter: .done
      )
    ) {
      ChoreList()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.move(IndexSet(integer: 1), 0)) {
      $0.chores = [chore(2, "C", done: true), chore(0, "A", done: true), chore(1, "B")]
    }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.sortDoneChores) {
      $0.chores = [chore(1, "B"), chore(2, "C", done: true), chore(0, "A", done: true)]
    }
  }

  @Test("deleting by an IndexSet of visible rows removes those chores")
  func deleteFiltered() async {
    let store = TestStore(
      initialState: ChoreList.State(
        chores: [chore(0, "A"), chore(1, "B", done: true), chore(2, "C")], filter: .open
      )
    ) {
      ChoreList()
    }

    await store.send(.delete(IndexSet(integer: 1))) {
      $0.chores.remove(id: UUID(2))
    }
  }

  @Test("clearing removes every done chore")
  func clearDone() async {
    let store = TestStore(
      initialState: ChoreList.State(chores: [chore(0, "A", done: true), chore(1, "B")])
    ) {
      ChoreList()
    }

    await store.send(.clearDoneButtonTapped) {
      $0.chores = [chore(1, "B")]
    }
  }
}
