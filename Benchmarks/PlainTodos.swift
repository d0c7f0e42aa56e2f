import Architecture
import Foundation
import Todos

/// A twin of the todos example whose types declare no conformance for the tool (no `Codable`;
/// `Equatable` as TCA states are): what the recorder and replay reach only by reflection.
///
/// The reducer is the example's, line for line, but for the save, which has no storage to call:
/// the benchmarks reduce steps one by one and never run effects, so only their count matters.
struct PlainTodo: Reducer, Sendable {
  struct State: Equatable, Sendable, Identifiable {
    let id: UUID
    var title: String
    var isComplete: Bool
    var createdAt: Date
  }

  enum Action: Equatable, Sendable {
    case checkboxTapped
    case titleChanged(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .checkboxTapped:
        state.isComplete.toggle()
        return .none

      case let .titleChanged(title):
        state.title = title
        return .none
      }
    }
  }
}

/// The list of ``PlainTodo``s: `TodosFeature` with no `Codable` anywhere in its own types.
struct PlainTodosFeature: Reducer, Sendable {
  struct State: Equatable, Sendable {
    var filter: Filter = .all
    var todos: IdentifiedArrayOf<PlainTodo.State> = []
    var lastSavedAt: Date?
    var saveErrorMessage: String?

    var filteredTodos: IdentifiedArrayOf<PlainTodo.State> {
      switch filter {
      case .all: todos
      case .active: todos.filter { !$0.isComplete }
      case .completed: todos.filter(\.isComplete)
      }
    }
  }

  enum Filter: String, Sendable {
    case all
    case active
    case completed
  }

  enum Action: Equatable, Sendable {
    case addTodoButtonTapped
    case clearCompletedButtonTapped
    case deleteButtonTapped(id: PlainTodo.State.ID)
    case filterPicked(Filter)
    case move(fromOffsets: IndexSet, toOffset: Int)
    case saved
    case saveFailed(String)
    case sortCompletedTodos
    case todo(id: PlainTodo.State.ID, action: PlainTodo.Action)
  }

  enum CancelID {
    case save
    case todoCompletion
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(
          PlainTodo.State(id: uuid(), title: "", isComplete: false, createdAt: now), at: 0)
        return save()

      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return save()

      case let .deleteButtonTapped(id):
        state.todos.remove(id: id)
        return save()

      case let .filterPicked(filter):
        state.filter = filter
        return .none

      case var .move(fromOffsets: source, toOffset: destination):
        if state.filter != .all {
          let visible = state.filteredTodos
          source = IndexSet(source.compactMap { state.todos.index(id: visible[$0].id) })
          destination =
            destination < visible.count
            ? state.todos.index(id: visible[destination].id) ?? destination
            : state.todos.count
        }
        state.todos.move(fromOffsets: source, toOffset: destination)
        return save()

      case .saved:
        state.lastSavedAt = now
        state.saveErrorMessage = nil
        return .none

      case let .saveFailed(message):
        state.saveErrorMessage = message
        return .none

      case .sortCompletedTodos:
        state.todos.sort { $1.isComplete && !$0.isComplete }
        return save()

      case .todo(id: _, action: .checkboxTapped):
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.sortCompletedTodos)
        }
        .cancellable(id: CancelID.todoCompletion, cancelInFlight: true)

      case .todo(id: _, action: .titleChanged):
        return save()
      }
    }
    .forEach(\.todos, action: /Action.todo(id:action:)) {
      PlainTodo()
    }
  }

  private func save() -> Effect<Action> {
    .run { send in
      try await clock.sleep(for: .seconds(1))
      await send(.saved)
    }
    .cancellable(id: CancelID.save, cancelInFlight: true)
  }
}

extension PlainTodosFeature.State {
  /// The twin of `todosState(count:)`: the same todos, field for field.
  init(_ state: TodosFeature.State) {
    filter = PlainTodosFeature.Filter(rawValue: state.filter.rawValue)!
    todos = IdentifiedArray(
      uniqueElements: state.todos.map {
        PlainTodo.State(
          id: $0.id, title: $0.title, isComplete: $0.isComplete, createdAt: $0.createdAt)
      })
    lastSavedAt = state.lastSavedAt
    saveErrorMessage = state.saveErrorMessage
  }
}

extension PlainTodosFeature.Action {
  /// The twin of a `TodosFeature` action.
  init(_ action: TodosFeature.Action) {
    switch action {
    case .addTodoButtonTapped: self = .addTodoButtonTapped
    case .clearCompletedButtonTapped: self = .clearCompletedButtonTapped
    case let .deleteButtonTapped(id): self = .deleteButtonTapped(id: id)
    case let .filterPicked(filter): self = .filterPicked(.init(rawValue: filter.rawValue)!)
    case let .move(source, destination): self = .move(fromOffsets: source, toOffset: destination)
    case .saved: self = .saved
    case let .saveFailed(message): self = .saveFailed(message)
    case .sortCompletedTodos: self = .sortCompletedTodos
    case let .todo(id, .checkboxTapped): self = .todo(id: id, action: .checkboxTapped)
    case let .todo(id, .titleChanged(title)): self = .todo(id: id, action: .titleChanged(title))
    }
  }
}

/// The twin of `todosToggleShape(count:)`: the same todos, toggled in the same order.
@MainActor
func plainTodosToggleShape(count: Int) -> Shape<PlainTodosFeature> {
  let typed = todosToggleShape(count: count)
  return Shape(
    name: "plain todos (no Codable), \(count) todos, toggling one",
    reducer: PlainTodosFeature(),
    initialState: PlainTodosFeature.State(typed.initialState),
    action: { PlainTodosFeature.Action(typed.action($0)) }
  )
}
