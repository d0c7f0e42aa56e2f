import Architecture
import Foundation
import Todos

/// One identified-array operation in a loop and nothing else, for callgrind: what the storage
/// layout costs operations that do not share storage, and the one that does.
///
///   benchmarks profile-array OP todos1000|todos10000 [--steps N]
///   valgrind --tool=callgrind --toggle-collect='*arrayProfileLoop*' \
///     .build/release/benchmarks profile-array iterate todos1000 --steps 100
///
/// OP, each step:
/// - `iterate`: a `for` loop over every element (divide by the count for per element).
/// - `read-id`, `mutate-id`: read, or toggle in place, one todo through `subscript(id:)`.
/// - `mutate-position`: toggle one todo in place through `subscript(position:)`.
/// - `append`: build an array of the count by appending, from empty.
/// - `insert-remove`: insert a todo at the middle, then remove it.
/// - `equal-full`: `==` on two equal arrays built separately (every element compared).
/// - `equal-one`: `==` on two versions that differ by one mutated todo.
/// - `diff`: `_positionsThatMayDiffer(from:)` between two versions that differ by one todo.
/// - `shared-mutate`: toggle one todo while a copy keeps the previous version alive, as a
///   recorder does (the copy-on-write path).
@MainActor
func arrayProfile(_ arguments: [String], steps: Int?) {
  let positional = arguments.filter { !$0.hasPrefix("-") && Int($0) == nil }
  guard positional.count == 3, let count = Int(positional[2].dropFirst("todos".count)) else {
    print("profile-array: expected OP todos1000|todos10000")
    exit(64)
  }
  let operation = positional[1]
  let steps = steps ?? 300
  // Everything the loop reads is made here, outside the measured function; the array it mutates
  // is unique to it (passed inout), so that only `shared-mutate` copies.
  var todos = todosState(count: count).todos
  let ids = todos.ids.elements
  var other = IdentifiedArrayOf<Todo.State>()
  if operation == "equal-full" {
    other = IdentifiedArray(uniqueElements: todos.elements)
  } else if operation == "equal-one" || operation == "diff" {
    other = todos
    other[id: ids[count / 2]]?.title += "!"
  }
  let elements = todos.elements
  guard let total = arrayProfileLoop(operation, &todos, other, ids, elements, steps: steps) else {
    print("profile-array: unknown operation \(operation)")
    exit(64)
  }
  print("\(operation), \(count) todos, \(steps) steps: \(total)")
}

@MainActor private var arrayProfileKept: IdentifiedArrayOf<Todo.State>?

@MainActor @inline(never)
private func arrayProfileLoop(
  _ operation: String,
  _ todos: inout IdentifiedArrayOf<Todo.State>,
  _ other: IdentifiedArrayOf<Todo.State>,
  _ ids: [UUID],
  _ elements: [Todo.State],
  steps: Int
) -> Int? {
  let count = todos.count
  var total = 0
  switch operation {
  case "iterate":
    for _ in 0..<steps {
      for todo in todos where todo.isComplete { total &+= 1 }
    }
  case "read-id":
    for step in 0..<steps where todos[id: ids[step * 7 % count]]?.isComplete == true {
      total &+= 1
    }
  case "mutate-id":
    for step in 0..<steps { todos[id: ids[step * 7 % count]]?.isComplete.toggle() }
    total = todos.count
  case "mutate-position":
    for step in 0..<steps { todos[step * 7 % count].isComplete.toggle() }
    total = todos.count
  case "append":
    for _ in 0..<steps {
      var built = IdentifiedArrayOf<Todo.State>()
      for element in elements { built.append(element) }
      total &+= built.count
    }
  case "insert-remove":
    let extra = Todo.State(id: UUID(), title: "Extra", isComplete: false, createdAt: Date())
    for _ in 0..<steps {
      todos.insert(extra, at: count / 2)
      total &+= todos.remove(at: count / 2).title.utf8.count
    }
  case "equal-full", "equal-one":
    for _ in 0..<steps where todos == other { total &+= 1 }
  case "diff":
    for _ in 0..<steps { total &+= other._positionsThatMayDiffer(from: todos)?.count ?? -1 }
  case "shared-mutate":
    // Kept in a global, so that the optimizer cannot drop the copy.
    arrayProfileKept = todos
    for step in 0..<steps {
      todos[id: ids[step * 7 % count]]?.isComplete.toggle()
      arrayProfileKept = todos
    }
    total = arrayProfileKept?.count ?? 0
  default:
    return nil
  }
  return total
}
