import Todos

/// Records the lists a test's `TodosStorage` was asked to save, in order.
actor SaveLog {
  private(set) var saves: [[Todo.State]] = []

  func record(_ todos: [Todo.State]) {
    saves.append(todos)
  }
}

/// A save failure with a message a test can expect.
struct StorageFull: Error, CustomStringConvertible {
  var description: String { "The disk is full." }
}
