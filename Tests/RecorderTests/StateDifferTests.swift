import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

@Suite("State differ")
struct StateDifferTests {
  struct Item: Codable, Equatable, Identifiable {
    var id: Int
    var title: String
    var done = false
    var note: String?
    var secret = "pin-\(Int.random(in: 1000...9999))"
  }
  struct State: Codable, Equatable {
    var items: IdentifiedArrayOf<Item>
    var filter = "all"
    var selection: Int?
    var tags: [String] = []
  }

  static func whole(_ state: State, _ redactions: [Redaction]) throws -> JSONValue {
    var json = try JSONValueEncoder().encode(state)
    Redaction.apply(redactions, to: &json, isState: true)
    return json
  }

  /// A seeded generator so the random edits repeat.
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return state >> 11 | state << 53
    }
  }

  @Test("random edits of a large state give patches that rebuild its whole encoding, redacted")
  func randomEdits() throws {
    let redactions: [Redaction] = [.path("/items/*/secret"), .key("note")]
    var random = Seeded(state: 42)
    var state = State(items: IdentifiedArray(uniqueElements: (0..<300).map { Item(id: $0, title: "item \($0)") }))
    var differ = try StateDiffer(initialState: state, redactions: redactions)
    var rebuilt = differ.json
    #expect(rebuilt == (try Self.whole(state, redactions)))
    var nextID = 1_000
    for _ in 0..<400 {
      let position = Int.random(in: 0..<state.items.count, using: &random)
      switch Int.random(in: 0..<8, using: &random) {
      case 0: state.items[position].done.toggle()
      case 1: state.items[position].title += "!"
      case 2: state.items[position].note = state.items[position].note == nil ? "n" : nil
      case 3: state.items[position].secret = "changed-\(position)"
      case 4:
        state.items.insert(Item(id: nextID, title: "new"), at: position)
        nextID += 1
      case 5: state.items.remove(at: position)
      case 6: state.selection = state.selection == nil ? position : nil
      default: state.tags.append("t\(position)")
      }
      let patch = try differ.advance(to: state)
      rebuilt = try patch.apply(to: rebuilt)
      let expected = try Self.whole(state, redactions)
      #expect(rebuilt == expected)
      #expect(differ.json == expected)
    }
    let text = rebuilt.jsonString
    #expect(!text.contains("pin-"))
    #expect(!text.contains("changed-"))
  }

  @Test("toggling one element of a large state produces just a test and a replace at its path")
  func minimalPatch() throws {
    var state = State(items: IdentifiedArray(uniqueElements: (0..<300).map { Item(id: $0, title: "item \($0)", secret: "s") }))
    var differ = try StateDiffer(initialState: state, redactions: [])
    state.items[id: 123]?.done = true
    let patch = try differ.advance(to: state)
    #expect(patch.json == [
      ["op": "test", "path": "/items/123/done", "value": false],
      ["op": "replace", "path": "/items/123/done", "value": true],
    ])
  }

  @Test("a struct whose encoding differs from its stored properties is diffed whole, correctly")
  func customEncoding() throws {
    struct Celsius: Codable, Equatable {
      var degrees: Double
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(degrees.rounded(), forKey: .degrees)
      }
    }
    struct Big: Codable, Equatable {
      var readings: [Celsius]
      var current = Celsius(degrees: 1.4)
    }
    var state = Big(readings: (0..<300).map { Celsius(degrees: Double($0)) })
    var differ = try StateDiffer(initialState: state, redactions: [])
    var rebuilt = differ.json
    for step in 0..<5 {
      state.current.degrees += 0.7
      state.readings[step].degrees += 0.3
      rebuilt = try differ.advance(to: state).apply(to: rebuilt)
      #expect(rebuilt == (try JSONValueEncoder().encode(state)))
    }
  }
}
