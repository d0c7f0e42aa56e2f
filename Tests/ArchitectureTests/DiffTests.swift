import Architecture
import Foundation
import Testing

private enum CounterFeature {
  struct State: Equatable {
    var count = 0
    var isLoading = false
  }

  enum Action: Equatable {
    case incrementButtonTapped
    case decrementButtonTapped
    case response(Int)
  }
}

private struct Todo: Equatable, Hashable {
  var id: Int
  var title: String
  var isComplete = false
}

private struct TodosState: Equatable {
  var todos: [Todo]
  var filter: Filter = .all
  var editing: Todo? = nil
}

private enum Filter: Equatable {
  case all, active, completed
}

private struct Settings: Equatable {
  var a = 1
  var b = 2
  var c = 3
  var d = 4
  var e = 5
  var f = 6
  var g = 7
  var h = 8
}

private func todos(_ count: Int) -> [Todo] {
  (0..<count).map { Todo(id: $0, title: "Todo \($0)") }
}

@Suite("diff")
struct DiffTests {
  @Test("Equal values have no diff, dictionaries and sets whatever their hash order")
  func noDifference() {
    let state = TodosState(todos: todos(20))
    #expect(diff(state, state) == nil)
    var forward: [String: Int] = [:]
    var backward: [String: Int] = [:]
    for index in 0..<50 { forward["k\(index)"] = index }
    for index in (0..<50).reversed() { backward["k\(index)"] = index }
    #expect(diff(forward, backward) == nil)
    #expect(diff(Set(0..<50), Set((0..<50).reversed())) == nil)
  }

  @Test("A changed field prints as a removed and an added line inside its struct")
  func changedField() {
    #expect(
      diff(CounterFeature.State(count: 2), CounterFeature.State(count: 1)) == """
          CounterFeature.State(
        −   count: 2,
        +   count: 1,
            isLoading: false
          )
        """
    )
  }

  @Test("Removed lines start with U+2212 MINUS SIGN, added lines with +, the rest with spaces")
  func markers() throws {
    let body = try #require(diff(1, 2))
    #expect(body == "\u{2212} 1\n+ 2")
    #expect(!body.contains("-"))
  }

  @Test("A change deep inside prints with its enclosing lines; far siblings fold or collapse")
  func nestedChange() {
    var after = TodosState(todos: todos(10))
    let before = after
    after.todos[6].isComplete = true
    #expect(
      diff(before, after) == """
          TodosState(
            todos: [
              … (4 unchanged)
              [4]: Todo(…),
              [5]: Todo(…),
              [6]: Todo(
                id: 6,
                title: "Todo 6",
        −       isComplete: false
        +       isComplete: true
              ),
              [7]: Todo(…),
              [8]: Todo(…),
              [9]: Todo(…)
            ],
            filter: .all,
            editing: nil
          )
        """
    )
  }

  @Test("Inserting one element into a long array prints one added block amid collapsed context")
  func insertedElement() {
    let before = todos(100)
    var after = before
    after.insert(Todo(id: 1_000, title: "New"), at: 50)
    #expect(
      diff(before, after) == """
          [
            … (48 unchanged)
            [48]: Todo(…),
            [49]: Todo(…),
        +   [50]: Todo(
        +     id: 1000,
        +     title: "New",
        +     isComplete: false
        +   ),
            [51]: Todo(…),
            [52]: Todo(…),
            … (48 unchanged)
          ]
        """
    )
  }

  @Test("Removing the first element prints one removed block; later elements keep their lines")
  func removedElement() {
    let before = todos(5)
    let after = Array(before.dropFirst())
    #expect(
      diff(before, after) == """
          [
        −   [0]: Todo(
        −     id: 0,
        −     title: "Todo 0",
        −     isComplete: false
        −   ),
            [0]: Todo(…),
            [1]: Todo(…),
            … (2 unchanged)
          ]
        """
    )
  }

  @Test("Appending to an array is one added block, not a change to the last element's comma")
  func appendedElement() {
    #expect(
      diff([1, 2, 3], [1, 2, 3, 4]) == """
          [
            [0]: 1,
            [1]: 2,
            [2]: 3,
        +   [3]: 4
          ]
        """
    )
  }

  @Test("A changed enum case prints with its type at the root and as .case inside a value")
  func enumCase() {
    #expect(
      diff(CounterFeature.Action.incrementButtonTapped, .decrementButtonTapped) == """
        − CounterFeature.Action.incrementButtonTapped
        + CounterFeature.Action.decrementButtonTapped
        """
    )
    #expect(
      diff(CounterFeature.Action.response(1), .response(2)) == """
        − CounterFeature.Action.response(1)
        + CounterFeature.Action.response(2)
        """
    )
    var after = TodosState(todos: [])
    let before = after
    after.filter = .completed
    #expect(
      diff(before, after) == """
          TodosState(
            todos: [],
        −   filter: .all,
        +   filter: .completed,
            editing: nil
          )
        """
    )
  }

  @Test("An optional going from nil to a value prints nil removed and the value added")
  func optionalNilVersusValue() {
    let before = TodosState(todos: [])
    var after = before
    after.editing = Todo(id: 1, title: "Milk")
    #expect(
      diff(before, after) == """
          TodosState(
            todos: [],
            filter: .all,
        −   editing: nil
        +   editing: Todo(
        +     id: 1,
        +     title: "Milk",
        +     isComplete: false
        +   )
          )
        """
    )
    #expect(diff(Int?.none, 5) == "\u{2212} nil\n+ 5")
  }

  @Test("In a struct with many fields, only the fields near the change print")
  func collapsedFields() {
    var after = Settings()
    after.b = 20
    #expect(
      diff(Settings(), after) == """
          Settings(
            a: 1,
        −   b: 2,
        +   b: 20,
            c: 3,
            d: 4,
            … (4 unchanged)
          )
        """
    )
  }

  @Test("A change in a multi-line string prints only the lines around it")
  func multilineString() {
    let before = (1...10).map { "line \($0)" }.joined(separator: "\n")
    let after = before.replacingOccurrences(of: "line 5", with: "line five")
    #expect(
      diff(before, after) == #"""
          """
            … (2 unchanged)
            line 3
            line 4
        −   line 5
        +   line five
            line 6
            line 7
            … (4 unchanged)
        """#
    )
  }

  @Test("Diffing 1,000-element arrays shows one inserted block")
  func largeArray() throws {
    let before = (0..<1_000).map { Todo(id: $0, title: "Todo \($0)") }
    var after = before
    after.insert(Todo(id: 5_000, title: "New"), at: 500)
    let lines = try #require(diff(before, after)).split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("+") }.count == 5)
    #expect(!lines.contains { $0.hasPrefix("\u{2212}") })
  }

  @Test("Diffing 10,000-line dumps that share nothing removes and adds every line")
  func largeRewrite() throws {
    let before = (0..<2_000).map { Todo(id: $0, title: "Before \($0)") }
    let after = (0..<2_000).map { Todo(id: $0 + 10_000, title: "After \($0)", isComplete: true) }
    let lines = try #require(diff(before, after)).split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("\u{2212}") }.count == 6_000)
    #expect(lines.filter { $0.hasPrefix("+") }.count == 6_000)
  }
}
