import Architecture

/// Adds and names chores, ticks two off (they sink after the pause), reorders in edit mode,
/// deletes from a filtered list, and clears the done ones.
enum ChoreListSession: PlainSession {
  static let name = "Chore list"
  static func makeReducer() -> ChoreList { ChoreList() }
  static func makeInitialState() -> ChoreList.State { ChoreList.State() }

  static func prepareDependencies(_ dependencies: inout DependencyValues) {
    dependencies.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
    dependencies.uuid = .incrementing
  }

  static func drive(_ driver: PlainDriver<ChoreList.State, ChoreList.Action>) async {
    for title in ["Bins out", "Descale kettle", "Water ferns", "Sweep porch"] {
      await driver.send(.addChoreButtonTapped)
      guard let id = driver.state.chores.first?.id else { return }
      await driver.send(.chore(id: id, action: .set(\.$title, title)))
    }
    let ids = driver.state.chores.ids
    await driver.send(.chore(id: ids[0], action: .set(\.$isDone, true)))
    await driver.advance(by: .milliseconds(500))
    await driver.send(.chore(id: ids[2], action: .set(\.$isDone, true)))
    await driver.advance(by: .seconds(1))
    await driver.send(.set(\.$editMode, .active))
    await driver.send(.move(IndexSet(integer: 0), 2))
    await driver.advance(by: .milliseconds(100))
    await driver.send(.set(\.$editMode, .inactive))
    await driver.send(.set(\.$filter, .open))
    await driver.send(.delete(IndexSet(integer: 1)))
    await driver.send(.set(\.$filter, .done))
    await driver.send(.move(IndexSet(integer: 1), 0))
    await driver.advance(by: .milliseconds(100))
    await driver.send(.set(\.$filter, .all))
    await driver.send(.clearDoneButtonTapped)
  }
}
