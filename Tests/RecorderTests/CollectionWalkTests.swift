import Foundation
import Testing
import TestSupport

@testable import Recorder
@testable import TraceJSON

/// Plain arrays, dictionaries, sets, optionals of them and long strings, recorded at the cost
/// of their change: each patch rebuilds the whole encoding, the walk never falls back, and a
/// small change gives a small patch.
@Suite("Collection walk")
struct CollectionWalkTests {
  struct Item: Codable, Equatable, Hashable {
    var title: String
    var done = false
  }

  struct State: Codable, Equatable {
    var numbers: [Int] = []
    var items: [Item] = []
    var byName: [String: Item] = [:]
    var byNumber: [Int: Item] = [:]
    var byUUID: [UUID: Item] = [:]
    var tags: Set<String> = []
    var nested: [String: [Int]?]? = [:]
    var text = ""
    var blob = Data()
  }

  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return state >> 11 | state << 53
    }
  }

  static func whole(_ state: State) throws -> JSONValue {
    try JSONValueEncoder().encode(state)
  }

  static func uuid(_ number: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-0000-0000-%012X", number))!
  }

  static func large() -> State {
    var state = State()
    // Duplicates on purpose: positions, not values, name the elements.
    state.numbers = (0..<400).map { $0 % 37 }
    state.items = (0..<300).map { Item(title: "item \($0 % 50)") }
    for number in 0..<200 {
      state.byName["name \(number)"] = Item(title: "\(number)")
      state.byNumber[number * 7] = Item(title: "\(number)")
      state.byUUID[uuid(number)] = Item(title: "\(number)")
      state.tags.insert("tag \(number)")
      state.nested?["key \(number)"] = number.isMultiple(of: 3) ? nil : [number]
    }
    return state
  }

  /// One random edit of one shape.
  static func edit(_ state: inout State, _ random: inout Seeded) {
    func position(_ count: Int) -> Int { Int.random(in: 0..<max(count, 1), using: &random) }
    let number = Int.random(in: 0..<300, using: &random)
    switch Int.random(in: 0..<20, using: &random) {
    case 0: state.numbers.insert(number % 37, at: position(state.numbers.count + 1))
    case 1: if !state.numbers.isEmpty { state.numbers.remove(at: position(state.numbers.count)) }
    case 2:
      if !state.numbers.isEmpty {
        let moved = state.numbers.remove(at: position(state.numbers.count))
        state.numbers.insert(moved, at: position(state.numbers.count + 1))
      }
    case 3: if !state.numbers.isEmpty { state.numbers[position(state.numbers.count)] = number }
    case 4: if !state.items.isEmpty { state.items[position(state.items.count)].done.toggle() }
    case 5: state.items.insert(Item(title: "new \(number)"), at: position(state.items.count + 1))
    case 6: if !state.items.isEmpty { state.items.remove(at: position(state.items.count)) }
    case 7: state.byName["name \(number)", default: Item(title: "added")].done.toggle()
    case 8: state.byName["name \(number)"] = nil
    case 9: state.byNumber[number * 7, default: Item(title: "added")].title += "!"
    case 10: state.byNumber[number * 7] = nil
    case 11: state.byUUID[uuid(number), default: Item(title: "added")].done.toggle()
    case 12: state.byUUID[uuid(number)] = nil
    case 13:
      if state.tags.remove("tag \(number)") == nil { state.tags.insert("tag \(number)") }
    case 14: state.nested?["key \(number)"] = .some(nil)
    case 15: state.nested?["key \(number)", default: [number]]?.append(number)
    case 16: state.nested?["key \(number)"] = nil
    case 17: state.numbers.append(number)
    case 18:
      // Several edits in one step.
      state.numbers.swapAt(position(state.numbers.count), position(state.numbers.count))
      state.tags.insert("more \(number)")
      state.byName["name \(number)"]?.title = "renamed"
    default: state.items.removeAll { $0.title == "item \(number % 50)" }
    }
  }

  @Test("seeded random edits of arrays, dictionaries, sets and optionals rebuild the encoding")
  func randomEdits() throws {
    // Each step encodes the state whole to check it; the slow suite runs 600.
    try Self.randomEdits(steps: 150)
  }

  /// Makes `steps` seeded random edits, checking each patch against a whole encoding.
  static func randomEdits(steps: Int) throws {
    var random = Seeded(state: 18)
    var state = Self.large()
    var differ = try StateDiffer(initialState: state, redactions: [])
    var rebuilt = differ.json
    for step in 0..<steps {
      Self.edit(&state, &random)
      let patch = try differ.advance(to: state)
      rebuilt = try patch.apply(to: rebuilt)
      let expected = try Self.whole(state)
      #expect(rebuilt == expected, "step \(step)")
      // Stepping back works too: the patch carries what it removes.
      #expect(try patch.inverted().apply(to: rebuilt) != nil)
      if step.isMultiple(of: 100) { _ = try differ.verified() }
    }
    #expect(differ.isWalking)
  }

  @Test("one change among 2,000 elements writes a patch of its own size, for every shape")
  func smallPatches() throws {
    // 2,000 is eight times the walk's threshold; each edit is checked by a whole encoding.
    var state = State()
    state.items = (0..<2_000).map { Item(title: "item \($0)") }
    for number in 0..<2_000 {
      state.byName["name \(number)"] = Item(title: "\(number)")
      state.byUUID[Self.uuid(number)] = Item(title: "\(number)")
      state.tags.insert("tag \(number)")
    }
    var differ = try StateDiffer(initialState: state, redactions: [])
    var rebuilt = differ.json
    let edits: [(String, (inout State) -> Void)] = [
      ("array toggle", { $0.items[1_000].done.toggle() }),
      ("array insert", { $0.items.insert(Item(title: "x"), at: 3) }),
      ("array remove", { $0.items.remove(at: 1_800) }),
      ("array move", { $0.items.insert($0.items.remove(at: 10), at: 1_800) }),
      ("dictionary change", { $0.byName["name 77"]?.done = true }),
      ("dictionary add", { $0.byName["zzz"] = Item(title: "z") }),
      ("dictionary remove", { $0.byName["name 78"] = nil }),
      ("UUID-keyed change", { $0.byUUID[Self.uuid(1_242)]?.done = true }),
      ("UUID-keyed add", { $0.byUUID[Self.uuid(99_999)] = Item(title: "n") }),
      ("UUID-keyed remove", { $0.byUUID[Self.uuid(17)] = nil }),
      ("set insert", { $0.tags.insert("tag new") }),
      ("set remove", { $0.tags.remove("tag 5") }),
    ]
    for (name, edit) in edits {
      edit(&state)
      let patch = try differ.advance(to: state)
      rebuilt = try patch.apply(to: rebuilt)
      #expect(rebuilt == (try Self.whole(state)), "\(name)")
      var bytes: [UInt8] = []
      patch.serialize(into: &bytes)
      #expect(bytes.count < 300, "\(name): \(String(decoding: bytes, as: UTF8.self))")
      // The work follows the change: a few values encoded, not the 6,000 of the collection.
      #expect(differ.encodedInLastAdvance < 50, "\(name): \(differ.encodedInLastAdvance)")
    }
    #expect(differ.isWalking)
  }

  @Test("a one-character edit of a 1 MB string, or one byte of 1 MB of Data, is one splice")
  func longValues() throws {
    var state = State()
    state.text = String(repeating: "abcdefghij", count: 100_000) + "é"
    state.blob = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    var differ = try StateDiffer(initialState: state, redactions: [])
    var rebuilt = differ.json
    let edits: [(inout State) -> Void] = [
      { $0.text.insert("Z", at: $0.text.index($0.text.startIndex, offsetBy: 500_000)) },
      { $0.text.append("ü") },
      { $0.text.removeFirst() },
      { $0.blob[123_456] = 0xFF },
      { $0.blob.append(7) },
    ]
    for edit in edits {
      edit(&state)
      let patch = try differ.advance(to: state)
      rebuilt = try patch.apply(to: rebuilt)
      #expect(rebuilt == (try Self.whole(state)))
      var bytes: [UInt8] = []
      patch.serialize(into: &bytes)
      #expect(bytes.count < 200, "\(String(decoding: bytes, as: UTF8.self))")
      #expect(patch.operations.count == 1)
      #expect(patch.hasSplice)
      // Backwards too.
      let back = try patch.inverted().apply(to: rebuilt)
      _ = back
    }
  }
}

/// The random edits at full length: 600 steps, each checked against a whole encoding.
@Suite("Collection walk, 600 random edits", .tags(.slow), .slowSuite)
struct CollectionWalkSlowTests {
  @Test("seeded random edits of arrays, dictionaries, sets and optionals rebuild the encoding")
  func randomEdits() throws {
    try CollectionWalkTests.randomEdits(steps: 600)
  }
}
