import Architecture
import Foundation

/// A todo list, after Point-Free's Todos case study: add, edit, complete, delete, clear, filter
/// and reorder todos, with a save that waits until the list has settled.
///
/// It is the example with the most kinds of effect a recorder must follow: a debounced save that
/// is cancelled and restarted by every change, a delayed sort that a second tap cancels, and a
/// dependency that can fail.
public struct TodosFeature: Reducer, Sendable {
  /// The list, the filter over it, and how the last save went.
  public struct State: Equatable, Codable, Sendable {
    public var filter: Filter
    public var todos: IdentifiedArrayOf<Todo.State>
    /// When the list was last saved, from `@Dependency(\.date.now)`.
    public var lastSavedAt: Date?
    /// Why the last save failed, until a save succeeds.
    public var saveErrorMessage: String?

    public init(
      filter: Filter = .all,
      todos: IdentifiedArrayOf<Todo.State> = [],
      lastSavedAt: Date? = nil,
      saveErrorMessage: String? = nil
    ) {
      self.filter = filter
      self.todos = todos
      self.lastSavedAt = lastSavedAt
      self.saveErrorMessage = saveErrorMessage
    }

    /// The todos the current filter lets through, in list order.
    public var filteredTodos: IdentifiedArrayOf<Todo.State> {
      switch filter {
      case .all: todos
      case .active: todos.filter { !$0.isComplete }
      case .completed: todos.filter(\.isComplete)
      }
    }
  }

  /// What the user does to the list, and what its effects report back.
  public enum Action: Equatable, Codable, Sendable {
    case addTodoButtonTapped
    case clearCompletedButtonTapped
    case deleteButtonTapped(id: Todo.State.ID)
    case filterPicked(Filter)
    /// Offsets are in the filtered list the user sees, as SwiftUI's `onMove` reports them.
    case move(fromOffsets: IndexSet, toOffset: Int)
    case saved
    case saveFailed(String)
    case sortCompletedTodos
    case todo(id: Todo.State.ID, action: Todo.Action)
  }

  enum CancelID {
    case save
    case todoCompletion
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.todosStorage) var storage
  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: uuid(), createdAt: now), at: 0)
        return save(state.todos)

      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return save(state.todos)

      case let .deleteButtonTapped(id):
        // `forEach` cancels only the removed todo's own effects: a pending sort belongs to the
        // list, and still runs.
        state.todos.remove(id: id)
        return save(state.todos)

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
        return save(state.todos)

      case .saved:
        state.lastSavedAt = now
        state.saveErrorMessage = nil
        return .none

      case let .saveFailed(message):
        state.saveErrorMessage = message
        return .none

      case .sortCompletedTodos:
        state.todos.sort { $1.isComplete && !$0.isComplete }
        // Saves even if nothing moved: the tap that scheduled the sort changed the list too.
        return save(state.todos)

      case .todo(id: _, action: .checkboxTapped):
        // Sorting a second after the tap lets the user tap again (to undo, or complete more)
        // before the rows move. The save waits for the sort rather than racing it: a save
        // scheduled now would come due at the same instant.
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.sortCompletedTodos)
        }
        .cancellable(id: CancelID.todoCompletion, cancelInFlight: true)

      case .todo(id: _, action: .titleChanged):
        return save(state.todos)
      }
    }
    .forEach(\.todos, action: /Action.todo(id:action:)) {
      Todo()
    }
  }

  /// Saves `todos` once the list has been left alone for a second: each change cancels the
  /// pending save and starts the wait again, so typing a title saves once, not per keystroke.
  private func save(_ todos: IdentifiedArrayOf<Todo.State>) -> Effect<Action> {
    .run { [todos = todos.elements] send in
      try await clock.sleep(for: .seconds(1))
      try await storage.save(todos)
      await send(.saved)
    } catch: { error, send in
      await send(.saveFailed(String(describing: error)))
    }
    .cancellable(id: CancelID.save, cancelInFlight: true)
  }
}
