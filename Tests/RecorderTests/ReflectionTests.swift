import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

// The same shapes twice: once as an app writes them, with no conformance, and once `Codable`,
// so that what reflection writes can be compared with what synthesized `Codable` writes.
private enum Plain {
  struct Item: Equatable, Identifiable {
    let id: Int
    var title: String
    var note: String?
    var kind: Kind
  }
  enum Kind: Equatable { case plain, starred(level: Int), tagged(String, Int?) }
  struct State: Equatable {
    var items: IdentifiedArrayOf<Item> = []
    var list: [Item] = []
    var byName: [String: Kind] = [:]
    var tags: Set<Int> = []
    var pair: Pair<Kind>
    var empty = Empty()
    var missing: Int?
  }
  struct Pair<T: Equatable>: Equatable { var first: T; var second: T? }
  struct Empty: Equatable {}
  enum Action: Equatable {
    case tapped
    case renamed(id: Int, title: String)
    case moved(IndexSet, Int)
    case picked(Kind?)
  }
}

private enum Coded {
  struct Item: Codable, Equatable, Identifiable {
    let id: Int
    var title: String
    var note: String?
    var kind: Kind
  }
  enum Kind: Codable, Equatable { case plain, starred(level: Int), tagged(String, Int?) }
  struct State: Codable, Equatable {
    var items: IdentifiedArrayOf<Item> = []
    var list: [Item] = []
    var byName: [String: Kind] = [:]
    var tags: Set<Int> = []
    var pair: Pair<Kind>
    var empty = Empty()
    var missing: Int?
  }
  struct Pair<T: Codable & Equatable>: Codable, Equatable { var first: T; var second: T? }
  struct Empty: Codable, Equatable {}
  enum Action: Codable, Equatable {
    case tapped
    case renamed(id: Int, title: String)
    case moved(IndexSet, Int)
    case picked(Kind?)
  }
}

private var plainState: Plain.State { Plain.State(
  items: [
    Plain.Item(id: 1, title: "Milk", note: nil, kind: .plain),
    Plain.Item(id: 2, title: "Eggs", note: "a dozen", kind: .starred(level: 3)),
  ],
  list: [Plain.Item(id: 3, title: "Tea", note: nil, kind: .tagged("x", nil))],
  byName: ["a": .tagged("y", 4)],
  tags: [3, 1, 2],
  pair: Plain.Pair(first: .plain, second: .starred(level: 1))
) }

private var codedState: Coded.State { Coded.State(
  items: [
    Coded.Item(id: 1, title: "Milk", note: nil, kind: .plain),
    Coded.Item(id: 2, title: "Eggs", note: "a dozen", kind: .starred(level: 3)),
  ],
  list: [Coded.Item(id: 3, title: "Tea", note: nil, kind: .tagged("x", nil))],
  byName: ["a": .tagged("y", 4)],
  tags: [3, 1, 2],
  pair: Coded.Pair(first: .plain, second: .starred(level: 1))
) }

@Suite("Values by reflection")
struct ReflectionTests {
  let encoder = JSONValueEncoder()
  let decoder = JSONValueDecoder()

  @Test("a value with no conformance is written as synthesized Codable writes its twin")
  func sameFormAsCodable() throws {
    let plainJSON = try encoder.encode(Reflected(plainState))
    let codedJSON = try encoder.encode(codedState)
    #expect(plainJSON.jsonString == codedJSON.jsonString)
    let plainActions: [Plain.Action] = [
      .tapped, .renamed(id: 4, title: "Bread"), .moved(IndexSet([0, 2]), 1), .picked(nil),
      .picked(.starred(level: 2)),
    ]
    let codedActions: [Coded.Action] = [
      .tapped, .renamed(id: 4, title: "Bread"), .moved(IndexSet([0, 2]), 1), .picked(nil),
      .picked(.starred(level: 2)),
    ]
    for (plain, coded) in zip(plainActions, codedActions) {
      #expect(try encoder.encode(Reflected(plain)).jsonString == encoder.encode(coded).jsonString)
    }
  }

  @Test("a value with no conformance is rebuilt from what was written")
  func roundTrip() throws {
    let json = try encoder.encode(Reflected(plainState))
    #expect(try decoder.decode(Reflected<Plain.State>.self, from: json).value == plainState)
    for action: Plain.Action in [
      .tapped, .renamed(id: 4, title: "Bread"), .moved(IndexSet([0, 2]), 1), .picked(nil),
      .picked(.tagged("z", 9)),
    ] {
      let json = try encoder.encode(Reflected(action))
      #expect(try decoder.decode(Reflected<Plain.Action>.self, from: json).value == action)
    }
  }

  @Test("a value written by its twin's Codable is rebuilt by reflection")
  func rebuildsCodableForm() throws {
    let json = try encoder.encode(codedState)
    #expect(try decoder.decode(Reflected<Plain.State>.self, from: json).value == plainState)
  }

  @Test(
    "a recorded value that does not fit its type is refused, naming its place",
    arguments: [
      (#"{"tapped":{},"picked":{}}"#, "at / is not a"),
      (#"{"bogus":{}}"#, "one of its cases (.renamed, .moved, .picked, .tapped)"),
      (#"{"renamed":{"id":"four","title":"x"}}"#, "at /renamed/id"),
      (#"{"renamed":{"title":"x"}}"#, "at /renamed/id: the recording has no value for it"),
      (#"{"picked":{"_0":{"starred":{"level":[1]}}}}"#, "at /picked/_0/starred/level is not a Swift.Int"),
      (#"[1,2]"#, "at / is not a"),
      (#"{"$opaque":"Secret"}"#, "recorded as an opaque value"),
    ])
  func refusesMisfits(json: String, expected: String) throws {
    let value = try JSONValue(parsing: Array(json.utf8))
    #expect {
      try decoder.decode(Reflected<Plain.Action>.self, from: value)
    } throws: { error in
      "\(error)".contains(expected)
    }
  }
}
