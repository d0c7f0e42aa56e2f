import Architecture
import Foundation
import Recorder
import Todos

/// A few hundred steps of the todos app: adding, typing titles, completing (with the delayed
/// sort), filtering, moving, deleting and clearing, with the debounced saves in between.
@MainActor
public func recordTodosSession(to recorder: TraceRecorder) async {
  let clock = TestClock()
  let store = Store(initialState: TodosFeature.State()) {
    TodosFeature()
      .recording(to: recorder)
  } withDependencies: {
    $0.continuousClock = clock
    $0.uuid = .incrementing
    $0.date = .ticking(from: Date(timeIntervalSince1970: 1_800_000_000))
    $0.todosStorage = .liveValue
  }
  let driver = SessionDriver(store: store, clock: clock)
  let errands = [
    "Buy milk", "Call the plumber", "Water the plants", "Renew passport", "Book dentist",
    "Fix the bike", "Return library books", "Pay electricity", "Plan the trip", "Bake bread",
    "Wash the car", "Answer emails", "Buy stamps", "Clean the gutters", "Read a chapter",
  ]

  for (round, errand) in errands.enumerated() {
    // Add a todo and type its title letter by letter: one save, after the last letter.
    await driver.send(.addTodoButtonTapped)
    let id = store.todos[0].id
    var title = ""
    for letter in errand.prefix(8 + round % 5) {
      title.append(letter)
      await driver.send(.todo(id: id, action: .titleChanged(title)))
    }
    await driver.advance(by: .seconds(1)) { $0.lastSavedAt != nil }

    if round >= 2 {
      // Complete the oldest open todo; the list sorts a second later, then saves.
      if let open = store.todos.last(where: { !$0.isComplete }) {
        await driver.send(.todo(id: open.id, action: .checkboxTapped))
        await driver.advance(by: .seconds(1))
        await driver.advance(by: .seconds(1))
      }
    }
    if round % 3 == 2 {
      await driver.send(.filterPicked(.completed))
      await driver.send(.filterPicked(.active))
      await driver.send(.move(fromOffsets: IndexSet(integer: 0), toOffset: 2))
      await driver.send(.filterPicked(.all))
      await driver.advance(by: .seconds(1))
    }
    if round % 4 == 3, let last = store.todos.last {
      await driver.send(.deleteButtonTapped(id: last.id))
      await driver.advance(by: .seconds(1))
    }
  }
  await driver.send(.clearCompletedButtonTapped)
  await driver.advance(by: .seconds(1))
}

extension DateGenerator {
  /// A date that moves one second forward each time it is read: distinct, reproducible dates.
  static func ticking(from start: Date) -> Self {
    let ticks = Ticks()
    return Self { start.addingTimeInterval(Double(ticks.next())) }
  }
}

/// Counts reads, with the project's own lock, as `UUIDGenerator.incrementing` does.
private final class Ticks: @unchecked Sendable {
  private let lock = Lock()
  private var count = 0
  func next() -> Int {
    lock.withLock {
      defer { count += 1 }
      return count
    }
  }
}
