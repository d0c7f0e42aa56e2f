import Architecture

/// Where the todo list is saved.
///
/// A dependency rather than a call to the file system, so tests can record saves or make them
/// fail. The examples run without a disk or a network: the live value keeps the last saved list
/// in memory, standing in for a file or a server.
public struct TodosStorage: Sendable {
  /// Saves the whole list, in order.
  public var save: @Sendable ([Todo.State]) async throws -> Void

  public init(save: @escaping @Sendable ([Todo.State]) async throws -> Void) {
    self.save = save
  }
}

extension TodosStorage: DependencyKey {
  public static let liveValue: TodosStorage = {
    let memory = InMemoryTodos()
    return TodosStorage { todos in await memory.replace(with: todos) }
  }()
}

extension DependencyValues {
  /// Saves the todo list. Tests override it; the default test value reports that it was used.
  public var todosStorage: TodosStorage {
    get { self[TodosStorage.self] }
    set { self[TodosStorage.self] = newValue }
  }
}

/// The live storage's memory: the last list saved.
private actor InMemoryTodos {
  var todos: [Todo.State] = []

  func replace(with todos: [Todo.State]) {
    self.todos = todos
  }
}
