import Architecture
import Counter
import Foundation
import Todos

/// A feature to benchmark: a reducer, a starting state and the action to send at step `i`.
struct Shape<R: Reducer> {
  var name: String
  var reducer: R
  var initialState: R.State
  var action: (Int) -> R.Action
  var dependencies: (inout DependencyValues) -> Void = { _ in }
}

@MainActor let counterShape = Shape(
  name: "counter",
  reducer: CounterFeature(),
  initialState: CounterFeature.State(),
  action: { $0.isMultiple(of: 2) ? .incrementButtonTapped : .decrementButtonTapped }
)

/// The todos app holding `count` todos.
@MainActor
func todosState(count: Int) -> TodosFeature.State {
  let start = Date(timeIntervalSince1970: 1_800_000_000)
  let todos = (0..<count).map { index in
    Todo.State(
      id: UUID(counting: UInt64(index)),
      title: "Todo number \(index)",
      isComplete: index.isMultiple(of: 3),
      createdAt: start.addingTimeInterval(Double(index))
    )
  }
  return TodosFeature.State(todos: IdentifiedArray(uniqueElements: todos))
}

/// Toggles one todo per action, walking through the list: a one-todo change each step.
@MainActor
func todosToggleShape(count: Int) -> Shape<TodosFeature> {
  let ids = (0..<count).map { UUID(counting: UInt64($0 * 7 % count)) }
  return Shape(
    name: "todos, \(count) todos, toggling one",
    reducer: TodosFeature(),
    initialState: todosState(count: count),
    action: { .todo(id: ids[$0 % count], action: .checkboxTapped) }
  )
}

/// Switches the filter: an effect-free action on a state holding `count` todos.
@MainActor
func todosFilterShape(count: Int) -> Shape<TodosFeature> {
  let filters: [TodosFeature.Filter] = [.active, .completed, .all]
  return Shape(
    name: "todos, \(count) todos, picking a filter",
    reducer: TodosFeature(),
    initialState: todosState(count: count),
    action: { .filterPicked(filters[$0 % 3]) }
  )
}
