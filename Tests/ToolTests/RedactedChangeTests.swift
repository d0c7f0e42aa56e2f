import Architecture
import Foundation
import Recorder
import TestSupport
import Testing

/// A redacted value changed in place shows as a change, and nothing of it reaches the file.
///
/// The app is a smart lock's key vault, written as a TCA user would (no `Codable`): a PIN that
/// changes in place, API keys set inside elements of an identified array (one inserted before
/// another, which moves it), and a recovery phrase that never changes. Recorded here by
/// today's code.
@Suite("Redacted values changed in place")
struct RedactedChangeTests {
  struct KeyVault: Reducer {
    struct Integration: Identifiable {
      let id: Int
      var service: String
      var apiKey = ""
    }

    struct State {
      var owner = "Ines"
      var pin = "4071"
      var recoveryPhrase = "otter-maple-quartz"
      var integrations: IdentifiedArrayOf<Integration> = []
      var unlockCount = 0
    }

    enum Action {
      case ownerRenamed(String)
      case pinEntered(String)
      case integrationAdded(id: Int, service: String)
      case apiKeyPasted(id: Int, key: String)
      case unlocked
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .ownerRenamed(let name): state.owner = name
      case .pinEntered(let pin): state.pin = pin
      case .integrationAdded(let id, let service):
        state.integrations.insert(Integration(id: id, service: service), at: 0)
      case .apiKeyPasted(let id, let key): state.integrations[id: id]?.apiKey = key
      case .unlocked: state.unlockCount += 1
      }
      return .none
    }
  }

  /// The secrets one recording uses: two recordings with different ones must write the same.
  struct Secrets {
    var pins: (String, String)
    var keys: (String, String)
  }

  static let first = Secrets(pins: ("4071", "9316"), keys: ("wk-live-7Q2P", "wk-live-3M8Z"))
  static let second = Secrets(pins: ("2580", "1397"), keys: ("zz-test-0000", "zz-test-1111"))

  static func record(_ secrets: Secrets, in folder: URL, name: String) throws -> String {
    let path = folder.appendingPathComponent(name).path
    let recorder = try TraceRecorder(
      path: path,
      options: .init(redactions: [
        .key("pin"), .key("apiKey"), .key("recoveryPhrase"), .key("pinEntered"),
        .key("apiKeyPasted"),
      ]))
    let reducer = Reduce(KeyVault().recording(to: recorder))
    var state = KeyVault.State(pin: secrets.pins.0)
    let actions: [KeyVault.Action] = [
      .ownerRenamed("Ines Roa"),  // 0: a visible change
      .pinEntered(secrets.pins.1),  // 1: the PIN changes in place
      .integrationAdded(id: 1, service: "weather"),  // 2
      .apiKeyPasted(id: 1, key: secrets.keys.0),  // 3: "" → hidden, a visible change already
      .integrationAdded(id: 2, service: "maps"),  // 4: inserted before weather, which moves
      .apiKeyPasted(id: 1, key: secrets.keys.1),  // 5: weather's key changes in place
      .unlocked,  // 6
      .pinEntered(secrets.pins.1),  // 7: the same PIN again: no change
    ]
    for action in actions { _ = reducer.reduce(into: &state, action: action) }
    try recorder.close()
    return path
  }

  static func folder() throws -> URL {
    let url = Scratch.url("redacted-change")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("show says each hidden value that changed in place, and only those")
  func show() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = try Self.record(Self.first, in: folder, name: "vault.ndjson")
    func changes(_ step: Int) throws -> [String] {
      let result = try ToolRunner.run(["show", trace, String(step)])
      #expect(result.status == 0, "\(result.errors)")
      return result.output.split(separator: "\n").map(String.init)
        .filter { line in
          ["  ~", "  +", "  -"].contains { line.hasPrefix($0) } || line.contains("(no change)")
        }
    }
    #expect(try changes(1) == ["  ~ /pin: changed, value redacted"])
    #expect(try changes(5) == ["  ~ /integrations/1/apiKey: changed, value redacted"])
    #expect(try changes(4).allSatisfy { !$0.contains("value redacted") })
    #expect(try changes(7) == ["  (no change)"])
    // A case whose whole payload is hidden reads as a case, not as its encoding.
    let action = try ToolRunner.run(["show", trace, "5"]).output.split(separator: "\n")
      .first { $0.hasPrefix("action") }
    #expect(action == #"action  .apiKeyPasted("<redacted>")"#)
  }

  @Test("log --changed lists the steps that changed a hidden value, and no other")
  func logChanged() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = try Self.record(Self.first, in: folder, name: "vault.ndjson")
    func steps(_ path: String) throws -> [String] {
      let result = try ToolRunner.run(["log", trace, "--changed", path])
      #expect(result.status == 0, "\(result.errors)")
      return result.output.split(separator: "\n").map(String.init)
    }
    let pin = try steps("/pin")
    #expect(pin.count == 2, "\(pin)")
    #expect(pin.first?.hasPrefix("     1") == true && pin.first?.hasSuffix(" .pinEntered") == true)
    #expect(pin.last == "          ~ /pin: changed, value redacted")
    let key = try steps("/integrations[id=1]/apiKey")
    // Step 2 adds the element, with no key yet; 3 sets one (shown as the placeholder); 5
    // changes it in place.
    let listed = key.filter { !$0.hasPrefix("          ") }.map { $0.prefix(6) }
    #expect(listed == ["     2", "     3", "     5"])
    #expect(key.last == "          ~ /integrations[id=1]/apiKey: changed, value redacted")
    #expect(try steps("/recoveryPhrase").isEmpty)
    let json = try ToolRunner.run(["log", trace, "--changed", "/pin", "--json"])
    #expect(json.output.split(separator: "\n").count == 1)
  }

  @Test("diff says a hidden value that changed between its two steps, and not one that did not")
  func diff() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = try Self.record(Self.first, in: folder, name: "vault.ndjson")
    let whole = try ToolRunner.run(["diff", trace, "initial", "last"])
    #expect(whole.status == 0, "\(whole.errors)")
    #expect(whole.output.contains("  ~ /pin: changed, value redacted\n"), "\(whole.output)")
    #expect(!whole.output.contains("recoveryPhrase"))
    let later = try ToolRunner.run(["diff", trace, "2", "4", "--path", "/pin"])
    #expect(later.output == "step 2 → step 4\n  (no change)\n")
    let json = try ToolRunner.run(["diff", trace, "4", "6", "--json"])
    let pair = #"{"op":"replace","path":"/integrations/1/apiKey","value":"<redacted>"}"#
    #expect(json.output.contains(pair), "\(json.output)")
  }

  @Test("search for the placeholder finds the steps that changed a hidden value in place")
  func search() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = try Self.record(Self.first, in: folder, name: "vault.ndjson")
    let result = try ToolRunner.run(["search", trace, "redacted"])
    #expect(result.status == 0, "\(result.errors)")
    let changes = result.output.split(separator: "\n").filter { $0.contains("changes") }
    #expect(changes.count == 2, "\(result.output)")
    #expect(changes.first?.hasPrefix("step 1") == true)
    #expect(changes.first?.hasSuffix("/pin  changed, value redacted") == true, "\(result.output)")
    #expect(changes.last?.hasPrefix("step 5") == true, "\(result.output)")
  }

  @Test("the trace holds no secret and nothing derived from one: other secrets write the same")
  func nothingDerived() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = try String(
      contentsOfFile: Self.record(Self.first, in: folder, name: "a.ndjson"), encoding: .utf8)
    let second = try String(
      contentsOfFile: Self.record(Self.second, in: folder, name: "b.ndjson"), encoding: .utf8)
    for secret in ["4071", "9316", "wk-live", "7Q2P", "3M8Z", "otter", "2580", "1397", "zz-test"] {
      #expect(!first.contains(secret) && !second.contains(secret), "\(secret)")
    }
    // Times and the start differ between two recordings; nothing else may.
    func withoutTimes(_ text: String) -> String {
      text.replacing(/"(time|started)":("[^"]*"|[0-9.e+-]+)/, with: "")
    }
    #expect(withoutTimes(first) == withoutTimes(second))
    #expect(first.contains(#""op":"replace","path":"/pin","value":"<redacted>""#))
  }

  /// The browser check (`.ci/browser-test`) opens this recording's diff of step 5 against
  /// step 0. `RECORD_FIXTURES=1` writes it again.
  static let fixture = "Tests/ToolTests/Fixtures/vault-hidden-change.ndjson"

  @Test("the viewer's fixture is what today's recorder writes, times aside")
  func fixtureIsFresh() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = try Self.record(Self.first, in: folder, name: "vault.ndjson")
    let recorded = try String(contentsOfFile: trace, encoding: .utf8)
    if ProcessInfo.processInfo.environment["RECORD_FIXTURES"] == "1" {
      try recorded.write(toFile: Self.fixture, atomically: true, encoding: .utf8)
    }
    func withoutTimes(_ text: String) -> String {
      text.replacing(/"(time|started)":("[^"]*"|[0-9.e+-]+)/, with: "")
    }
    let committed = try String(contentsOfFile: Self.fixture, encoding: .utf8)
    #expect(withoutTimes(committed) == withoutTimes(recorded), "RECORD_FIXTURES=1 writes it")
  }

  @Test("a replay of the trace finds no divergence: a hidden value is unknown, not a difference")
  func replay() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = try Self.record(Self.first, in: folder, name: "vault.ndjson")
    for mode in [ReplayMode.isolated, .cumulative] {
      let replayer = Replayer(
        reducer: ReflectingReducer(base: KeyVault()), options: .init(mode: mode))
      let report = try replayer.replay(tracePath: trace)
      #expect(report.divergentSteps == 0, "\(mode): \(report)")
      #expect(report.steps == 8)
    }
  }

  /// A door whose credential is an enum: a case named by the rule holds the secret unlabelled
  /// (`_0`), in the state, in an array, inside another case, and as the action itself.
  struct Door: Reducer {
    enum Credential {
      case none
      case password(String)
      case badge(number: Int, password: String)
    }

    struct State {
      var credential = Credential.none
      var history: [Credential] = []
    }

    enum Action {
      case password(String)
      case badgeSwiped(Credential)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .password(let text): state.credential = .password(text)
      case .badgeSwiped(let credential): state.credential = credential
      }
      state.history.append(state.credential)
      return .none
    }
  }

  @Test("a key rule hides an enum case's unlabelled payload in the file and every output")
  func enumPayload() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let trace = folder.appendingPathComponent("door.ndjson").path
    let recorder = try TraceRecorder(path: trace, options: .init(redactions: [.key("password")]))
    let reducer = Reduce(Door().recording(to: recorder))
    var state = Door.State()
    for action: Door.Action in [
      .password("hunter2"), .password("swordfish"),
      .badgeSwiped(.badge(number: 7, password: "tr0ub4dor")),
      .badgeSwiped(.password("correcthorse")),
    ] {
      _ = reducer.reduce(into: &state, action: action)
    }
    try recorder.close()
    var outputs = [try String(contentsOfFile: trace, encoding: .utf8)]
    for arguments in [
      ["log", trace], ["log", trace, "--json"], ["show", trace, "1"], ["show", trace, "3"],
      ["state", trace, "last"], ["diff", trace, "initial", "last"], ["summary", trace],
      ["log", trace, "--changed", "/credential"], ["gen-test", trace],
      ["export", trace, "--format", "chrome-trace"], ["export", trace, "--format", "json-patch"],
      ["search", trace, "redacted"], ["view", trace, "-o", folder.path + "/door.html"],
    ] {
      let result = try ToolRunner.run(arguments)
      outputs.append(result.output + result.errors)
    }
    outputs.append(try String(contentsOfFile: folder.path + "/door.html", encoding: .utf8))
    for secret in ["hunter2", "swordfish", "tr0ub4dor", "correcthorse"] {
      for (index, output) in outputs.enumerated() {
        #expect(!output.contains(secret), "output \(index) shows \(secret)")
      }
    }
    // Step 1 changed the password in place.
    #expect(outputs[3].contains("~ /credential: changed, value redacted"), "\(outputs[3])")
  }
}
