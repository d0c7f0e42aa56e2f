import Architecture
import Foundation
import Testing
import Todos

@MainActor
@Suite("Todos")
struct TodosFeatureTests {
  let now = Date(timeIntervalSince1970: 1_234_567_890)

  let milk = Todo.State(id: UUID(counting: 10), title: "Milk", createdAt: .distantPast)
  let eggs = Todo.State(id: UUID(counting: 11), title: "Eggs", createdAt: .distantPast)
  let bread = Todo.State(id: UUID(counting: 12), title: "Bread", createdAt: .distantPast)
  let jam = Todo.State(id: UUID(counting: 13), title: "Jam", createdAt: .distantPast)

  @Test("adding puts a new todo first, with its id and date from dependencies, and saves it")
  func addTodo() async {
    let clock = TestClock()
    let saves = SaveLog()
    let store = TestStore(initialState: TodosFeature.State(todos: [milk])) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.uuid = .incrementing
      $0.todosStorage.save = { await saves.record($0) }
    }

    await store.send(.addTodoButtonTapped) {
      $0.todos.insert(Todo.State(id: UUID(counting: 0), createdAt: now), at: 0)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) {
      $0.lastSavedAt = now
    }
    #expect(await saves.saves == [[Todo.State(id: UUID(counting: 0), createdAt: now), milk]])
  }

  @Test("two quick title edits save once, a second after the last one")
  func debouncedSave() async {
    let clock = TestClock()
    let saves = SaveLog()
    let store = TestStore(initialState: TodosFeature.State(todos: [milk])) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.todosStorage.save = { await saves.record($0) }
    }

    await store.send(.todo(id: milk.id, action: .titleChanged("Oat"))) {
      $0.todos[id: milk.id]?.title = "Oat"
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(.todo(id: milk.id, action: .titleChanged("Oat milk"))) {
      $0.todos[id: milk.id]?.title = "Oat milk"
    }
    // A second after the first edit: its save was cancelled by the second edit.
    await clock.advance(by: .milliseconds(500))
    #expect(await saves.saves.isEmpty)

    await clock.advance(by: .milliseconds(500))
    await store.receive(.saved) {
      $0.lastSavedAt = now
    }
    var oatMilk = milk
    oatMilk.title = "Oat milk"
    #expect(await saves.saves == [[oatMilk]])
  }

  @Test("completing a todo sorts it below the active ones a second later, then saves")
  func completeTodo() async {
    let clock = TestClock()
    let saves = SaveLog()
    let store = TestStore(initialState: TodosFeature.State(todos: [milk, eggs])) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.todosStorage.save = { await saves.record($0) }
    }

    await store.send(.todo(id: milk.id, action: .checkboxTapped)) {
      $0.todos[id: milk.id]?.isComplete = true
    }
    await clock.advance(by: .seconds(1))
    var completedMilk = milk
    completedMilk.isComplete = true
    await store.receive(.sortCompletedTodos) {
      $0.todos = [eggs, completedMilk]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) {
      $0.lastSavedAt = now
    }
    #expect(await saves.saves == [[eggs, completedMilk]])
  }

  @Test("a second tap within the second cancels the first tap's sort; one sort runs after it")
  func secondTapCancelsSort() async {
    let clock = TestClock()
    let saves = SaveLog()
    let store = TestStore(initialState: TodosFeature.State(todos: [milk, eggs, bread])) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.todosStorage.save = { await saves.record($0) }
    }

    await store.send(.todo(id: milk.id, action: .checkboxTapped)) {
      $0.todos[id: milk.id]?.isComplete = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(.todo(id: eggs.id, action: .checkboxTapped)) {
      $0.todos[id: eggs.id]?.isComplete = true
    }
    // The first tap's sort was due now; had it run, the rows would have moved.
    await clock.advance(by: .milliseconds(500))
    #expect(store.state.todos.map(\.id) == [milk.id, eggs.id, bread.id])

    await clock.advance(by: .milliseconds(500))
    await store.receive(.sortCompletedTodos) {
      $0.todos.move(fromOffsets: [2], toOffset: 0)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) {
      $0.lastSavedAt = now
    }
    #expect(await saves.saves.map { $0.map(\.title) } == [["Bread", "Milk", "Eggs"]])
  }

  @Test("deleting a todo removes it and saves, without cancelling another todo's pending sort")
  func deleteTodo() async {
    let clock = TestClock()
    let saves = SaveLog()
    let store = TestStore(initialState: TodosFeature.State(todos: [milk, eggs, bread])) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.todosStorage.save = { await saves.record($0) }
    }

    await store.send(.todo(id: milk.id, action: .checkboxTapped)) {
      $0.todos[id: milk.id]?.isComplete = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(.deleteButtonTapped(id: eggs.id)) {
      $0.todos.remove(id: eggs.id)
    }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.sortCompletedTodos) {
      $0.todos.move(fromOffsets: [1], toOffset: 0)
    }
    // The sort's save replaced the deletion's, which was not due yet.
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) {
      $0.lastSavedAt = now
    }
    #expect(await saves.saves.map { $0.map(\.title) } == [["Bread", "Milk"]])
  }

  @Test("clearing completed todos keeps the active ones, in order, and saves them")
  func clearCompleted() async {
    let clock = TestClock()
    let saves = SaveLog()
    var completedEggs = eggs
    completedEggs.isComplete = true
    var completedJam = jam
    completedJam.isComplete = true
    let store = TestStore(
      initialState: TodosFeature.State(todos: [milk, completedEggs, bread, completedJam])
    ) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.todosStorage.save = { await saves.record($0) }
    }

    await store.send(.clearCompletedButtonTapped) {
      $0.todos = [milk, bread]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) {
      $0.lastSavedAt = now
    }
    #expect(await saves.saves == [[milk, bread]])
  }

  @Test("the filter picks which todos are shown, and changes no todo and saves nothing")
  func filter() async {
    var completedEggs = eggs
    completedEggs.isComplete = true
    // No clock and no storage: a filter that started a save would be reported.
    let store = TestStore(initialState: TodosFeature.State(todos: [milk, completedEggs, bread])) {
      TodosFeature()
    }

    await store.send(.filterPicked(.active)) {
      $0.filter = .active
    }
    #expect(store.state.filteredTodos.map(\.id) == [milk.id, bread.id])
    await store.send(.filterPicked(.completed)) {
      $0.filter = .completed
    }
    #expect(store.state.filteredTodos.map(\.id) == [eggs.id])
    await store.send(.filterPicked(.all)) {
      $0.filter = .all
    }
    #expect(store.state.filteredTodos.map(\.id) == [milk.id, eggs.id, bread.id])
  }

  @Test("moving reorders the todos and saves the new order")
  func move() async {
    let clock = TestClock()
    let saves = SaveLog()
    let store = TestStore(initialState: TodosFeature.State(todos: [milk, eggs, bread])) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.todosStorage.save = { await saves.record($0) }
    }

    await store.send(.move(fromOffsets: [0], toOffset: 3)) {
      $0.todos = [eggs, bread, milk]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) {
      $0.lastSavedAt = now
    }
    #expect(await saves.saves == [[eggs, bread, milk]])
  }

  @Test("moving in a filtered list moves the rows the user sees around the hidden ones")
  func moveFiltered() async {
    let clock = TestClock()
    let saves = SaveLog()
    var completedEggs = eggs
    completedEggs.isComplete = true
    let store = TestStore(
      initialState: TodosFeature.State(filter: .active, todos: [milk, completedEggs, bread, jam])
    ) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.todosStorage.save = { await saves.record($0) }
    }

    // Shown: Milk, Bread, Jam. Jam to the top of what is shown: before Milk.
    await store.send(.move(fromOffsets: [2], toOffset: 0)) {
      $0.todos = [jam, milk, completedEggs, bread]
    }
    // Shown: Jam, Milk, Bread. Jam to the bottom of what is shown: the end of the list.
    await store.send(.move(fromOffsets: [0], toOffset: 3)) {
      $0.todos = [milk, completedEggs, bread, jam]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) {
      $0.lastSavedAt = now
    }
    #expect(await saves.saves == [[milk, completedEggs, bread, jam]])
  }

  @Test("a failed save is shown until a later save succeeds")
  func saveFailure() async {
    let clock = TestClock()
    let saves = SaveLog()
    let store = TestStore(initialState: TodosFeature.State(todos: [milk])) {
      TodosFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.todosStorage.save = { _ in throw StorageFull() }
    }

    await store.send(.todo(id: milk.id, action: .titleChanged("Oat milk"))) {
      $0.todos[id: milk.id]?.title = "Oat milk"
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saveFailed("The disk is full.")) {
      $0.saveErrorMessage = "The disk is full."
    }

    store.dependencies.todosStorage.save = { await saves.record($0) }
    await store.send(.todo(id: milk.id, action: .titleChanged("Milk"))) {
      $0.todos[id: milk.id]?.title = "Milk"
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) {
      $0.lastSavedAt = now
      $0.saveErrorMessage = nil
    }
    #expect(await saves.saves == [[milk]])
  }

  @Test("state and actions survive a JSON round trip, as a recorder needs")
  func codable() throws {
    var completedEggs = eggs
    completedEggs.isComplete = true
    let state = TodosFeature.State(
      filter: .completed, todos: [milk, completedEggs], lastSavedAt: now,
      saveErrorMessage: "The disk is full."
    )
    let actions: [TodosFeature.Action] = [
      .addTodoButtonTapped,
      .deleteButtonTapped(id: milk.id),
      .filterPicked(.active),
      .move(fromOffsets: [0, 2], toOffset: 3),
      .saveFailed("The disk is full."),
      .todo(id: milk.id, action: .titleChanged("Oat milk")),
      .todo(id: eggs.id, action: .checkboxTapped),
    ]

    let decodedState = try JSONDecoder().decode(
      TodosFeature.State.self, from: JSONEncoder().encode(state)
    )
    let decodedActions = try JSONDecoder().decode(
      [TodosFeature.Action].self, from: JSONEncoder().encode(actions)
    )
    #expect(decodedState == state)
    #expect(decodedActions == actions)
  }
}
