@testable import Architecture
import Synchronization
import Testing

private struct Child: Equatable, Sendable {
  var count: Int
  var title: String
}

private enum ChildAction: Equatable, Sendable {
  case increment
  case decrement
  case setTitle(String)
}

private final class Reference: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

private struct Failure: Error, Equatable {
  var code: Int
}

private enum Action: Sendable {
  case child(ChildAction)
  case first(Int)
  case second(Int)
  case state(Child)
  case move(Int, String)
  case resize(width: Double, height: Double)
  case named(id: Int)
  case optional(Int?)
  case reference(Reference)
  case failure(any Error)
  case tapped
  case dismissed
  indirect case delayed(Action)
}

/// An `Equatable` action enum: `/Case` for a case without a payload needs one.
private enum ScreenAction: Equatable, Sendable {
  case appeared
  case tapped
  case dismissed
  case child(ChildAction)
  case count(Int)
}

private indirect enum Tree: Equatable, Sendable {
  case leaf(Int)
  case node(Tree, Tree)
  case empty
}

private class Animal: @unchecked Sendable {}
private final class Dog: Animal, @unchecked Sendable {}
private final class Cat: Animal, @unchecked Sendable {}

private enum Zoo: Sendable {
  case animal(Animal)
  case keeper(String)
}

/// Every case `indirect`: payloads are read through `Mirror`, including a one-element tuple.
private indirect enum Node: Sendable {
  case value(id: Int)
  case pair(Node, Node)
}

private enum Generic<Element: Sendable>: Sendable {
  case element(Element)
  case elements([Element])
  case none
}

/// Every action, one per case, to check that a path extracts from its own case only.
private let allActions: [Action] = [
  .child(.increment), .first(1), .second(2), .state(Child(count: 3, title: "three")),
  .move(4, "four"), .resize(width: 5, height: 6), .named(id: 7), .optional(8),
  .reference(Reference(name: "nine")), .failure(Failure(code: 10)), .tapped, .dismissed,
  .delayed(.first(11)),
]

/// The indices of `allActions` a path extracts from.
private func matches<Value>(_ path: AnyCasePath<Action, Value>) -> [Int] {
  allActions.indices.filter { path.extract(from: allActions[$0]) != nil }
}

@Suite("Case paths")
struct CasePathTests {
  @Test("/Case extracts a single payload and nil from every other case")
  func singlePayload() {
    let path = /Action.state
    #expect(path.extract(from: .state(Child(count: 1, title: "a"))) == Child(count: 1, title: "a"))
    #expect(matches(path) == [3])
    #expect(path.embed(Child(count: 2, title: "b")).isState(Child(count: 2, title: "b")))
  }

  @Test("/Case does not confuse two cases whose payloads have the same type")
  func samePayloadType() {
    let first = /Action.first
    let second = /Action.second
    #expect(first.extract(from: .first(1)) == 1)
    #expect(first.extract(from: .second(1)) == nil)
    #expect(second.extract(from: .second(2)) == 2)
    #expect(second.extract(from: .first(2)) == nil)
    #expect(matches(first) == [1])
    #expect(matches(second) == [2])
  }

  @Test("/Case learns its case from a root of another case and still rejects it")
  func learnsFromAnotherCase() {
    // A fresh path whose first root is a different case with a payload of the same type.
    let second = /Action.second
    #expect(second.extract(from: .first(5)) == nil)
    #expect(second.extract(from: .second(6)) == 6)
    #expect(second.extract(from: .first(7)) == nil)
  }

  @Test("/Case extracts several payloads as a tuple")
  func tuplePayload() throws {
    let path = /Action.move
    let value = try #require(path.extract(from: .move(1, "one")))
    #expect(value.0 == 1)
    #expect(value.1 == "one")
    #expect(matches(path) == [4])
  }

  @Test("/Case extracts labelled payloads as an unlabelled tuple")
  func labelledPayload() throws {
    let resize = /Action.resize
    let size = try #require(resize.extract(from: .resize(width: 2, height: 3)))
    #expect(size.0 == 2)
    #expect(size.1 == 3)
    #expect(matches(resize) == [5])

    let named = /Action.named
    #expect(named.extract(from: .named(id: 42)) == 42)
    #expect(matches(named) == [6])
  }

  @Test("/Case extracts an enum payload (a child feature's action)")
  func enumPayload() {
    let path = /Action.child
    #expect(path.extract(from: .child(.setTitle("hi"))) == .setTitle("hi"))
    #expect(path.extract(from: .child(.decrement)) == .decrement)
    #expect(matches(path) == [0])
  }

  @Test("/Case extracts an optional payload, including nil")
  func optionalPayload() {
    let path = /Action.optional
    #expect(path.extract(from: .optional(3)) == .some(3))
    #expect(path.extract(from: .optional(nil)) == .some(nil))
    #expect(path.extract(from: .first(3)) == nil)
    #expect(matches(path) == [7])
  }

  @Test("/Case extracts from an indirect case")
  func indirectCase() {
    let delayed = /Action.delayed
    let extracted = delayed.extract(from: .delayed(.second(4)))
    #expect(extracted.flatMap((/Action.second).extract(from:)) == 4)
    #expect(matches(delayed) == [12])

    let node = /Tree.node
    let tree = Tree.node(.leaf(1), .node(.leaf(2), .empty))
    let children = node.extract(from: tree)
    #expect(children?.0 == .leaf(1))
    #expect(children?.1 == .node(.leaf(2), .empty))
    #expect(node.extract(from: .leaf(1)) == nil)
    #expect((/Tree.leaf).extract(from: .leaf(9)) == 9)
    #expect((/Tree.leaf).extract(from: tree) == nil)
  }

  @Test("/Case of an indirect case with one labelled payload extracts it through Mirror")
  func indirectLabelledPayload() {
    let value = /Node.value
    #expect(value.extract(from: .value(id: 3)) == 3)
    #expect(value.extract(from: .pair(.value(id: 1), .value(id: 2))) == nil)
  }

  @Test("Payloads are copied out of storage except for indirect cases")
  func extractionStrategy() {
    /// Whether a fresh path for `embed` copies payloads out of storage, after one extract.
    func isProjecting<Value>(
      _ embed: @escaping @Sendable (Value) -> Action,
      _ root: Action
    ) -> Bool {
      let reflected = ReflectedCase(embed: embed)
      _ = reflected.extract(from: root)
      let state = reflected.state.load(ordering: .acquiring)
      #expect(state != 0, "the path must have learned its case")
      return state & (1 << 62) != 0
    }
    #expect(isProjecting(Action.state, .state(Child(count: 1, title: "t"))))
    #expect(isProjecting(Action.second, .first(1)))
    #expect(isProjecting(Action.child, .child(.increment)))
    #expect(isProjecting(Action.move, .move(1, "a")))
    #expect(isProjecting(Action.resize, .resize(width: 1, height: 2)))
    #expect(isProjecting(Action.named, .named(id: 1)))
    #expect(isProjecting(Action.optional, .optional(nil)))
    #expect(isProjecting(Action.failure, .failure(Failure(code: 1))))
    #expect(!isProjecting(Action.delayed, .delayed(.tapped)))
  }

  @Test("A fresh path rejects a root whose payload type can never be its value, learning nothing")
  func rejectsUnrelatedPayloadTypes() {
    let reflected = ReflectedCase(embed: Action.state)
    #expect(reflected.extract(from: .first(1)) == nil)
    #expect(reflected.extract(from: .child(.increment)) == nil)
    #expect(reflected.extract(from: .move(1, "a")) == nil)
    #expect(reflected.extract(from: .optional(1)) == nil)
    #expect(reflected.extract(from: .tapped) == nil)
    #expect(reflected.state.load(ordering: .acquiring) == 0)
    #expect(reflected.extract(from: .state(Child(count: 2, title: "u")))?.count == 2)
    #expect(reflected.state.load(ordering: .acquiring) != 0)
  }

  @Test("A path whose value is a subclass of the declared payload extracts only that subclass")
  func subclassValue() {
    let dog = Dog()
    let animal = /Zoo.animal
    #expect(animal.extract(from: .animal(Cat())) is Cat)
    let dogs: AnyCasePath<Zoo, Dog> = /{ (dog: Dog) in Zoo.animal(dog) }
    #expect(dogs.extract(from: .animal(dog)) === dog)
    #expect(dogs.extract(from: .animal(Cat())) == nil)
    #expect(dogs.extract(from: .keeper("k")) == nil)
  }

  @Test("/Case extracts class and existential payloads")
  func referencePayloads() {
    let reference = Reference(name: "r")
    let path = /Action.reference
    #expect(path.extract(from: .reference(reference)) === reference)
    #expect(matches(path) == [8])

    let failure = /Action.failure
    #expect(failure.extract(from: .failure(Failure(code: 3))) as? Failure == Failure(code: 3))
    #expect(matches(failure) == [9])
  }

  @Test("/Case without a payload is an AnyCasePath<Root, Void> that matches only that case")
  func noPayload() {
    let tapped: AnyCasePath<ScreenAction, Void> = /ScreenAction.tapped
    let dismissed = /ScreenAction.dismissed
    let screen: [ScreenAction] = [.appeared, .tapped, .dismissed, .child(.increment), .count(0)]
    #expect(screen.map { tapped.extract(from: $0) != nil } == [false, true, false, false, false])
    #expect(screen.map { dismissed.extract(from: $0) != nil } == [false, false, true, false, false])
    #expect(tapped.embed(()) == .tapped)
    #expect((/Tree.empty).extract(from: .empty) != nil)
    #expect((/Tree.empty).extract(from: .leaf(0)) == nil)
    #expect((/ChildAction.increment).extract(from: .decrement) == nil)
  }

  @Test("A payload-less path does not capture /Case of a payload case on an Equatable enum")
  func embedFunctionOnEquatableEnum() {
    // With an unconstrained `/ <Root>(embed: Root)`, Swift 6.3 would pick it here and give an
    // `AnyCasePath<(Int) -> ScreenAction, Void>`; the annotation-free `let` must infer this.
    let count = /ScreenAction.count
    let typed: AnyCasePath<ScreenAction, Int> = count
    #expect(typed.extract(from: .count(3)) == 3)
    #expect(typed.extract(from: .tapped) == nil)
    let paths = [/ScreenAction.count, /ScreenAction.count]
    #expect(paths.compactMap { $0.extract(from: .count(1)) } == [1, 1])
  }

  @Test("/Case into an optional enum extracts from .some of that case, as CasePaths 1.x does")
  func optionalRoot() {
    let count: AnyCasePath<ScreenAction?, Int> = /ScreenAction.count
    #expect(count.extract(from: .some(.count(3))) == 3)
    #expect(count.extract(from: nil) == nil)
    #expect(count.embed(4) == .some(.count(4)))
    var state: ScreenAction? = .count(1)
    XCTModify(&state, case: /ScreenAction.count) { $0 += 1 }
    #expect(state == .count(2))
  }

  @Test("/Case works on generic enums and on Optional and Result")
  func standardLibraryEnums() {
    #expect((/Generic<String>.element).extract(from: .element("e")) == "e")
    #expect((/Generic<String>.element).extract(from: .elements(["e"])) == nil)
    #expect((/Generic<String>.elements).extract(from: .elements(["a", "b"])) == ["a", "b"])

    #expect((/Optional<Int>.some).extract(from: 5) == 5)
    #expect((/Optional<Int>.some).extract(from: nil) == nil)
    #expect((/Optional<Int>.none).extract(from: nil) != nil)

    let success = /Result<Int, Failure>.success
    let failure = /Result<Int, Failure>.failure
    #expect(success.extract(from: .success(1)) == 1)
    #expect(success.extract(from: .failure(Failure(code: 1))) == nil)
    #expect(failure.extract(from: .failure(Failure(code: 2))) == Failure(code: 2))
    #expect(failure.extract(from: .success(2)) == nil)
  }

  @Test("A path rebuilt for every action (as in a reducer body) extracts the same")
  func rebuiltPaths() {
    for index in 0..<100 {
      let action: Action = index.isMultiple(of: 2) ? .first(index) : .second(index)
      #expect((/Action.first).extract(from: action) == (index.isMultiple(of: 2) ? index : nil))
      #expect((/Action.second).extract(from: action) == (index.isMultiple(of: 2) ? nil : index))
      #expect((/Action.child).extract(from: action) == nil)
    }
  }

  @Test("Extracting reference-counted payloads many times neither leaks nor over-releases")
  func referenceCounting() {
    let path = /Action.state
    weak var weakReference: Reference?
    do {
      let reference = Reference(name: String(repeating: "x", count: 100))
      weakReference = reference
      let referencePath = /Action.reference
      for _ in 0..<10_000 {
        let title = String(repeating: "y", count: 50)
        #expect(path.extract(from: .state(Child(count: 1, title: title)))?.title == title)
        #expect(referencePath.extract(from: .reference(reference)) === reference)
      }
    }
    #expect(weakReference == nil)
  }

  @Test("Paths extract correctly from many tasks at once")
  func concurrentExtraction() async {
    let path = /Action.second
    let results = await withTaskGroup(of: [Int?].self) { group in
      for task in 0..<8 {
        group.addTask {
          (0..<1_000).map { index in
            path.extract(from: index.isMultiple(of: 2) ? .first(task) : .second(index))
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    for values in results {
      #expect(values == (0..<1_000).map { $0.isMultiple(of: 2) ? nil : $0 })
    }
  }

  @Test("init(embed:extract:) uses the given functions")
  func explicitPath() {
    let path = AnyCasePath<Action, Int>(
      embed: { .first($0) },
      extract: { if case let .first(value) = $0 { value } else { nil } }
    )
    #expect(path.extract(from: .first(1)) == 1)
    #expect(path.extract(from: .second(1)) == nil)
    #expect((/Action.first).extract(from: path.embed(2)) == 2)
    let old: CasePath<Action, Int> = path
    #expect(old.extract(from: .first(3)) == 3)
  }

  @Test("A closure embed that wraps a case works like the case's embed function")
  func closureEmbed() {
    let path: AnyCasePath<Action, Int> = /{ Action.second($0) }
    #expect(path.extract(from: .second(4)) == 4)
    #expect(path.extract(from: .first(4)) == nil)
  }

  @Test("appending(path:) composes into a nested case")
  func appending() {
    let title = (/Action.child).appending(path: /ChildAction.setTitle)
    #expect(title.extract(from: .child(.setTitle("t"))) == "t")
    #expect(title.extract(from: .child(.increment)) == nil)
    #expect(title.extract(from: .first(1)) == nil)
    #expect((/Action.child).extract(from: title.embed("u")) == .setTitle("u"))

    let increment = (/Action.child).appending(path: /ChildAction.increment)
    #expect(increment.extract(from: .child(.increment)) != nil)
    #expect(increment.extract(from: .child(.decrement)) == nil)
    if case .child(.increment) = increment.embed(()) {} else {
      Issue.record("embedding through the appended path must give .child(.increment)")
    }
  }

  @Test("The identity path returns the root, and ~= matches a path's case")
  func identityAndPatternMatching() {
    #expect((/Action.self).extract(from: .first(1)).flatMap((/Action.first).extract) == 1)
    #expect((/Tree.self).extract(from: .leaf(2)) == .leaf(2))
    #expect((/Tree.self).embed(.empty) == .empty)

    var matched: [String] = []
    for action in [ScreenAction.tapped, .count(1), .child(.increment)] {
      switch action {
      case /ScreenAction.tapped: matched.append("tapped")
      case /ScreenAction.count: matched.append("count")
      default: matched.append("other")
      }
    }
    #expect(matched == ["tapped", "count", "other"])
  }

  @Test("modify(_:_:) mutates the payload in place and throws for another case")
  func modify() throws {
    var action = Action.first(1)
    try (/Action.first).modify(&action) { $0 += 10 }
    #expect((/Action.first).extract(from: action) == 11)
    #expect(throws: AnyCasePath<Action, Int>.ExtractionFailed()) {
      try (/Action.second).modify(&action) { $0 += 1 }
    }
    #expect((/Action.first).extract(from: action) == 11)
  }
}

extension Action {
  fileprivate func isState(_ child: Child) -> Bool {
    if case let .state(value) = self { value == child } else { false }
  }
}
