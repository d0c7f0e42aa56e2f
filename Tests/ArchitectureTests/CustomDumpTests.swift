import Architecture
import Foundation
import Testing

private enum CounterFeature {
  struct State {
    var count = 0
    var isLoading = false
  }

  enum Action: Equatable, CustomStringConvertible {
    case incrementButtonTapped
    case response(Int)
    case named(id: Int, title: String)
    case loaded(State)
    case child(Child)

    var description: String { "an action" }

    static func == (lhs: Self, rhs: Self) -> Bool { "\(lhs)" == "\(rhs)" }
  }

  enum Child {
    case tapped
  }
}

private struct Todo: Hashable {
  var id: Int
  var title: String
}

private struct Empty {}

private struct Box<Value> {
  var value: Value
}

private indirect enum Expression {
  case number(Int)
  case sum(Expression, Expression)
}

private class Animal {
  var name = "Blob"
}

private final class Dog: Animal {
  var isGood = true
}

private final class Node {
  var value: Int
  var next: Node?

  init(value: Int, next: Node? = nil) {
    self.value = value
    self.next = next
  }
}

private struct Celsius: CustomStringConvertible {
  var description: String { "21 °C" }
}

private struct Login: CustomDumpReflectable {
  var username: String
  var token: String

  var customDumpMirror: Mirror {
    Mirror(self, children: ["username": username], displayStyle: .struct)
  }
}

private struct TaggedID: CustomDumpRepresentable {
  var rawValue: String
  var customDumpValue: Any { rawValue }
}

private struct Version: CustomDumpStringConvertible {
  var major: Int
  var minor: Int
  var customDumpDescription: String { "Version(\(major).\(minor))" }
}

/// A collection that is not an `Array` but reflects as one, as `IdentifiedArray` does.
private struct Stack<Element>: RandomAccessCollection, CustomReflectable {
  var elements: [Element]
  var startIndex: Int { elements.startIndex }
  var endIndex: Int { elements.endIndex }
  subscript(position: Int) -> Element { elements[position] }
  var customMirror: Mirror { Mirror(self, unlabeledChildren: elements, displayStyle: .collection) }
}

@Suite("customDump")
struct CustomDumpTests {
  @Test("A struct prints one field a line under its type name, qualified without the module")
  func structure() {
    #expect(
      customDump(CounterFeature.State(count: 2)) == """
        CounterFeature.State(
          count: 2,
          isLoading: false
        )
        """
    )
  }

  @Test("A struct without fields prints as an empty initializer")
  func emptyStructure() {
    #expect(customDump(Empty()) == "Empty()")
  }

  @Test("Nested structures indent by two spaces a level, and generic names keep their arguments")
  func nestedStructure() {
    #expect(
      customDump(Box(value: Box(value: Todo(id: 1, title: "Milk")))) == """
        Box<Box<Todo>>(
          value: Box<Todo>(
            value: Todo(
              id: 1,
              title: "Milk"
            )
          )
        )
        """
    )
  }

  @Test("A class prints like a struct, with its superclass's fields first")
  func classInstance() {
    #expect(
      customDump(Dog()) == """
        Dog(
          name: "Blob",
          isGood: true
        )
        """
    )
  }

  @Test("An object met again inside itself prints as Type(↩︎) instead of recursing forever")
  func referenceCycle() {
    let node = Node(value: 1)
    node.next = Node(value: 2, next: node)
    #expect(
      customDump(node) == """
        Node(
          value: 1,
          next: Node(
            value: 2,
            next: Node(↩︎)
          )
        )
        """
    )
    node.next = nil
  }

  @Test("An object shared by two fields, without a cycle, prints in full both times")
  func sharedReference() {
    let shared = Node(value: 7)
    #expect(
      customDump((shared, shared)) == """
        (
          Node(
            value: 7,
            next: nil
          ),
          Node(
            value: 7,
            next: nil
          )
        )
        """
    )
  }

  @Test("An enum at the root prints with its type; the case name wins over a description")
  func rootEnum() {
    #expect(
      customDump(CounterFeature.Action.incrementButtonTapped)
        == "CounterFeature.Action.incrementButtonTapped"
    )
    #expect(customDump(CounterFeature.Action.response(42)) == "CounterFeature.Action.response(42)")
  }

  @Test("Nested enums print as .case, payloads inline when each value fits on a line")
  func nestedEnum() {
    #expect(
      customDump(CounterFeature.Action.named(id: 1, title: "Milk"))
        == #"CounterFeature.Action.named(id: 1, title: "Milk")"#
    )
    #expect(
      customDump(CounterFeature.Action.child(.tapped)) == "CounterFeature.Action.child(.tapped)"
    )
    #expect(
      customDump([CounterFeature.Action.incrementButtonTapped, .response(1)]) == """
        [
          [0]: .incrementButtonTapped,
          [1]: .response(1)
        ]
        """
    )
  }

  @Test("A payload that spans lines prints on its own lines inside the case's parentheses")
  func multilinePayload() {
    #expect(
      customDump(CounterFeature.Action.loaded(CounterFeature.State(count: 3))) == """
        CounterFeature.Action.loaded(
          CounterFeature.State(
            count: 3,
            isLoading: false
          )
        )
        """
    )
  }

  @Test("Indirect enums print recursively")
  func indirectEnum() {
    #expect(
      customDump(Expression.sum(.number(1), .sum(.number(2), .number(3))))
        == "Expression.sum(.number(1), .sum(.number(2), .number(3)))"
    )
  }

  @Test("A generic enum's prefix drops its generic arguments")
  func genericEnum() {
    #expect(customDump(Result<Int, any Error>.success(1)) == "Result.success(1)")
  }

  @Test("Optionals print their wrapped value or nil, never Optional(…)")
  func optionals() {
    #expect(customDump(Int?.none) == "nil")
    #expect(customDump(Int?.some(5)) == "5")
    #expect(customDump(Box<String?>(value: "a")) == "Box<Optional<String>>(\n  value: \"a\"\n)")
    #expect(
      customDump(Box<Int??>(value: .some(nil))) == "Box<Optional<Optional<Int>>>(\n  value: nil\n)"
    )
    #expect(
      customDump(CounterFeature.Action?.some(.incrementButtonTapped))
        == "CounterFeature.Action.incrementButtonTapped"
    )
  }

  @Test("Strings print quoted, with quotes, backslashes and control characters escaped")
  func strings() {
    #expect(customDump("Blob") == #""Blob""#)
    #expect(customDump("say \"hi\"\t\\") == #""say \"hi\"\t\\""#)
    #expect(customDump(Substring("sub")) == #""sub""#)
    #expect(customDump(Character("c")) == #""c""#)
  }

  @Test("A string with line breaks prints as a multi-line literal, indented inside its field")
  func multilineString() {
    #expect(
      customDump(Box(value: "Hello\nWorld\n")) == #"""
        Box<String>(
          value: """
            Hello
            World

            """
        )
        """#
    )
  }

  @Test("A multi-line string holding triple quotes or backslashes prints as a raw literal")
  func rawMultilineString() {
    #expect(
      customDump("a \"\"\" b\nc \\n") == ##"""
        #"""
          a """ b
          c \n
          """#
        """##
    )
  }

  @Test("Arrays print each element with its index; an empty array prints as []")
  func arrays() {
    #expect(
      customDump([[1, 2], []]) == """
        [
          [0]: [
            [0]: 1,
            [1]: 2
          ],
          [1]: []
        ]
        """
    )
  }

  @Test("A collection that is not an Array prints its elements under its type name")
  func customCollection() {
    #expect(
      customDump(Stack(elements: [Todo(id: 1, title: "Milk")])) == """
        Stack<Todo>(
          [0]: Todo(
            id: 1,
            title: "Milk"
          )
        )
        """
    )
    #expect(customDump(Stack<Int>(elements: [])) == "Stack<Int>()")
  }

  @Test("Dictionaries print sorted by key, numbers by value, whatever the insertion order")
  func dictionaries() {
    var forward: [String: Int] = [:]
    var backward: [String: Int] = [:]
    let keys = (0..<50).map { "key\($0)" }
    for key in keys { forward[key] = 1 }
    for key in keys.reversed() { backward[key] = 1 }
    #expect(customDump(forward) == customDump(backward))

    #expect(
      customDump(["b": 2, "a": 1]) == """
        [
          "a": 1,
          "b": 2
        ]
        """
    )
    #expect(
      customDump([10: "ten", 2: "two", -1: "minus one"]) == """
        [
          -1: "minus one",
          2: "two",
          10: "ten"
        ]
        """
    )
    #expect(customDump([String: Int]()) == "[:]")
  }

  @Test("Sets print sorted by each element's dump")
  func sets() {
    #expect(
      customDump(Set([3, 1, 20])) == """
        Set([
          1,
          3,
          20
        ])
        """
    )
    #expect(customDump(Set<Int>()) == "Set([])")
  }

  @Test("Tuples print one element a line, with labels where they have them")
  func tuples() {
    #expect(
      customDump((1, label: "a")) == """
        (
          1,
          label: "a"
        )
        """
    )
  }

  @Test("Numbers and Booleans print as literals")
  func numbers() {
    #expect(customDump(42) == "42")
    #expect(customDump(-7 as Int8) == "-7")
    #expect(customDump(UInt64.max) == "18446744073709551615")
    #expect(customDump(1.5) == "1.5")
    #expect(customDump(Float(2)) == "2.0")
    #expect(customDump(true) == "true")
  }

  @Test("UUID, Date, Duration, URL and Data print as one line each")
  func foundationValues() throws {
    let uuid = try #require(UUID(uuidString: "deadbeef-0000-0000-0000-000000000001"))
    #expect(customDump(uuid) == "UUID(DEADBEEF-0000-0000-0000-000000000001)")
    #expect(
      customDump(Date(timeIntervalSince1970: 1_234_567_890)) == "Date(2009-02-13T23:31:30.000Z)"
    )
    #expect(
      customDump(Date(timeIntervalSince1970: 1_709_210_096.789)) == "Date(2024-02-29T12:34:56.789Z)"
    )
    #expect(
      customDump(Date(timeIntervalSince1970: -2_208_988_800 - 0.5))
        == "Date(1899-12-31T23:59:59.500Z)"
    )
    #expect(customDump(Duration.milliseconds(1_500)) == "1.5 seconds")
    let url = try #require(URL(string: "https://www.pointfree.co/episodes?page=2"))
    #expect(customDump(url) == "URL(https://www.pointfree.co/episodes?page=2)")
    #expect(customDump(Data([1, 2, 3])) == "Data(3 bytes)")
  }

  @Test("A value without fields prints its description; a type prints as Type.self")
  func leafDescriptions() {
    #expect(customDump(Box(value: Celsius())) == "Box<Celsius>(\n  value: 21 °C\n)")
    #expect(customDump(Int.self) == "Int.self")
    #expect(customDump(CounterFeature.State.self) == "CounterFeature.State.self")
  }

  @Test("CustomDumpReflectable, CustomDumpRepresentable and CustomDumpStringConvertible customise")
  func customisationHooks() {
    #expect(
      customDump(Login(username: "blob", token: "secret")) == "Login(\n  username: \"blob\"\n)"
    )
    #expect(
      customDump(Box(value: TaggedID(rawValue: "deadbeef")))
        == "Box<TaggedID>(\n  value: \"deadbeef\"\n)"
    )
    #expect(customDump([Version(major: 1, minor: 2)]) == "[\n  [0]: Version(1.2)\n]")
  }

  @Test("name labels the root, indent shifts every line, maxDepth folds deep containers")
  func options() {
    let state = Box(value: [Todo(id: 1, title: "Milk")])
    #expect(
      customDump(state, name: "state", indent: 4) == """
            state: Box<Array<Todo>>(
              value: [
                [0]: Todo(
                  id: 1,
                  title: "Milk"
                )
              ]
            )
        """
    )
    #expect(customDump(state, maxDepth: 0) == "Box<Array<Todo>>(…)")
    #expect(customDump(state, maxDepth: 1) == "Box<Array<Todo>>(\n  value: […]\n)")
    #expect(
      customDump(CounterFeature.Action.loaded(.init()), maxDepth: 1)
        == "CounterFeature.Action.loaded(CounterFeature.State(…))"
    )
  }

  @Test("The writer variant writes the same text into a TextOutputStream")
  func writer() {
    var output = "> "
    customDump(Todo(id: 1, title: "Milk"), to: &output)
    #expect(output == "> Todo(\n  id: 1,\n  title: \"Milk\"\n)")
  }
}

@Suite("dumpTypeName")
struct DumpTypeNameTests {
  @Test("Module prefixes go from every part of a name, generic arguments included")
  func modulePrefixes() {
    #expect(dumpTypeName([Int: [String?]].self) == "Dictionary<Int, Array<Optional<String>>>")
    #expect(dumpTypeName((Int, label: String).self) == "(Int, label: String)")
    #expect(dumpTypeName(((Int) -> UUID).self) == "(Int) -> UUID")
    #expect(dumpTypeName(Box<Todo>.self) == "Box<Todo>")
  }

  @Test("Local and private types print without reflection's anonymous contexts")
  func anonymousContexts() {
    struct Local {}
    #expect(dumpTypeName(Local.self) == "DumpTypeNameTests.Local")
    #expect(dumpTypeName(CounterFeature.State.self) == "CounterFeature.State")
  }

  @Test("An enum's prefix drops generic arguments but keeps the enclosing types")
  func enumPrefix() {
    #expect(dumpEnumTypeName(Result<Int, any Error>.self) == "Result")
    #expect(dumpEnumTypeName(CounterFeature.Action.self) == "CounterFeature.Action")
  }
}
