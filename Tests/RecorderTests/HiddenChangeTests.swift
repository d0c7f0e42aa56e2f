import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// A hidden value changed in place reads `"<redacted>"` before and after: the differ says it
/// changed with a `test` and `replace` of the placeholder, and says it of exactly those places,
/// through elements inserted, removed and moved around them, in small states (diffed whole)
/// and large ones (walked).
@Suite("Hidden values changed in place")
struct HiddenChangeTests {
  struct Key: Codable, Equatable, Identifiable {
    var id: Int
    var service: String
    var secret: String
  }
  struct State: Codable, Equatable {
    var pin = "4071"
    var keys: IdentifiedArrayOf<Key>
    var labels: [String] = []
  }

  static let rules: [Redaction] = [.key("pin"), .path("/keys/*/secret")]

  /// The places where `patch` (less what it says of hidden values) leaves a hidden value of
  /// `new` in place while its real value changed: what the differ must say, and nothing else.
  /// Found independently of the differ, by applying the patch to the old state's real JSON,
  /// which carries each real value to where the patch takes its place.
  static func changedInPlace(
    patch: JSONPatch, oldReal: JSONValue, newReal: JSONValue, newRedacted: JSONValue
  ) throws -> Set<String> {
    var tested: [JSONPointer: JSONValue] = [:]
    var operations: [JSONPatch.Operation] = []
    for operation in patch.operations {
      if case .test(let path, let value) = operation {
        tested[path] = value
      } else if !StateChange.isRedactedChange(operation, tested: tested) {
        operations.append(operation)
      }
    }
    let carried = try JSONPatch(operations).apply(to: oldReal)
    var paths: Set<String> = []
    func visit(_ value: JSONValue, _ path: JSONPointer) {
      if value == Redaction.placeholder {
        let before = path.resolve(in: carried)
        if let before, before != Redaction.placeholder, before != path.resolve(in: newReal) {
          paths.insert(path.description)
        }
      } else if case .object(let object) = value {
        for (key, member) in object { visit(member, path.appending(key)) }
      } else if case .array(let elements) = value {
        for (index, element) in elements.enumerated() {
          visit(element, path.appending(index: index))
        }
      }
    }
    visit(newRedacted, .root)
    return paths
  }

  @Test(
    "random edits say exactly the secrets that changed in place, and still rebuild the state",
    arguments: [4, 300])
  func randomEdits(count: Int) throws {
    var random = StateDifferTests.Seeded(state: UInt64(count))
    var state = State(
      keys: IdentifiedArray(uniqueElements: (0..<count).map {
        Key(id: $0, service: "service \($0)", secret: "sk-\($0)")
      }))
    var differ = try StateDiffer(initialState: state, redactions: Self.rules)
    var rebuilt = differ.json
    var nextID = 10_000
    var said = 0
    let encoder = JSONValueEncoder.recording
    for round in 0..<300 {
      let old = state
      let position = Int.random(in: 0..<state.keys.count, using: &random)
      switch Int.random(in: 0..<9, using: &random) {
      case 0: state.keys[position].secret = "sk-rotated-\(round)"
      case 1: state.keys[position].secret = ""
      case 2: state.pin = String(Int.random(in: 1000...9999, using: &random))
      case 3: state.keys[position].service += "!"
      case 4:
        state.keys.insert(Key(id: nextID, service: "new", secret: "sk-new-\(round)"), at: position)
        nextID += 1
      case 5 where state.keys.count > 2: state.keys.remove(at: position)
      case 6:
        // One moves, another's secret changes: the move carries the unchanged one along.
        let moved = state.keys.remove(at: position)
        state.keys.insert(moved, at: 0)
        state.keys[state.keys.count - 1].secret += "+"
      case 7: state.labels.append("l\(round)")
      default:
        state.keys[position].secret = "sk-rotated-\(round)"
        state.pin += "1"
      }
      let patch = try differ.advance(to: state)
      rebuilt = try patch.apply(to: rebuilt)
      #expect(rebuilt == differ.json)
      let found = Set(StateChange.redactedChanges(in: patch).map(\.description))
      let expected = try Self.changedInPlace(
        patch: patch, oldReal: encoder.encode(old), newReal: encoder.encode(state),
        newRedacted: differ.json)
      #expect(found == expected, "round \(round)")
      said += found.count
      // The patch inverts, as every step's must.
      #expect(throws: Never.self) { try patch.inverted() }
    }
    #expect(said > 20)
    #expect(!rebuilt.jsonString.contains("sk-"))
  }

  @Test("a recording without rules notes nothing and writes no extra operation")
  func noRules() throws {
    var state = State(keys: [Key(id: 1, service: "mail", secret: "sk-1")])
    var differ = try StateDiffer(initialState: state, redactions: [])
    state.keys[0].secret = "sk-2"
    let patch = try differ.advance(to: state)
    #expect(patch.json == [
      ["op": "test", "path": "/keys/0/secret", "value": "sk-1"],
      ["op": "replace", "path": "/keys/0/secret", "value": "sk-2"],
    ])
  }

  @Test("a secret under a key rule inside a path rule is noted once, at the outermost place")
  func nestedRules() throws {
    struct Vault: Codable, Equatable {
      var login = Login()
      struct Login: Codable, Equatable {
        var user = "ines"
        var pin = "1111"
      }
    }
    var state = Vault()
    var differ = try StateDiffer(initialState: state, redactions: [.key("pin"), .path("/login")])
    #expect(differ.json == ["login": "<redacted>"])
    state.login.pin = "2222"
    let patch = try differ.advance(to: state)
    #expect(StateChange.redactedChanges(in: patch).map(\.description) == ["/login"])
  }
}
