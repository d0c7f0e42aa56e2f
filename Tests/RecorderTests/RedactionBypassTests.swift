import Architecture
import Foundation
import TestSupport
import Testing

@testable import Recorder
@testable import TraceJSON

/// A feature whose state hides secrets in shapes whose encoding is not their stored properties:
/// a renamed coding key, a member left out of `CodingKeys`, a custom `encode(to:)` that masks a
/// member, and a raw-value enum whose raw values are secret. Each nested struct holds enough
/// values (64 or more) for the state differ to walk into it rather than encode it whole, and
/// the whole state holds more than 256, so the differ walks from the start.
struct Vault: Reducer {
  /// Sign-in details: `password` is encoded as `pw`, and the rules redact `pw`.
  struct Login: Encodable, Equatable {
    var user = "ada"
    var password: String?
    var attempts: [Int] = Array(0..<100)
    enum CodingKeys: String, CodingKey {
      case user
      case password = "pw"
      case attempts
    }
  }

  /// A draft whose scratch text is never encoded: it is not among its coding keys.
  struct Draft: Encodable, Equatable {
    var lines: [String] = (0..<100).map { "line \($0)" }
    var scratch: String?
    var revision = 0
    enum CodingKeys: String, CodingKey {
      case lines
      case revision
    }
  }

  /// A card whose own `encode(to:)` writes its code masked, under the property's own name.
  struct Card: Encodable, Equatable {
    var holder = "A. Lovelace"
    var cvc = "000"
    var readings: [Double] = (0..<100).map { Double($0) / 4 }
    enum CodingKeys: String, CodingKey {
      case holder
      case cvc
      case readings
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(holder, forKey: .holder)
      try container.encode(String(repeating: "•", count: cvc.count), forKey: .cvc)
      try container.encode(readings, forKey: .readings)
    }
  }

  /// Where the app connects; the raw values hold credentials, and the rules redact `endpoint`.
  enum Endpoint: String, Encodable, Equatable {
    case production = "https://svc:SECRET-ENDPOINT-PROD@prod.example"
    case staging = "https://svc:SECRET-ENDPOINT-STAGING@staging.example"
  }

  struct Settings: Encodable, Equatable {
    /// `nil` until chosen, so that only the recording that chooses one has its raw values.
    var endpoint: Endpoint?
    var retries = 3
    var matrix: [[Int]] = (0..<8).map { row in (0..<8).map { row * 8 + $0 } }
  }

  struct State: Encodable, Equatable {
    var ledger: [Int] = Array(0..<300)
    var login = Login()
    var draft = Draft()
    var card = Card()
    var settings = Settings()
    var tick = 0
  }

  /// The secrets are made by the reducer from a number, so that only the state holds them
  /// (except in `signedIn`, whose token the rules redact).
  enum Action: Encodable, Equatable {
    case ticked
    case passwordEntered(attempt: Int)
    case scratchWritten(attempt: Int)
    case cardScanned(attempt: Int)
    case endpointChosen(endpoint: Endpoint)
    case signedIn(user: String, token: String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.tick += 1
    state.ledger[state.tick % state.ledger.count] += 1
    switch action {
    case .ticked: break
    case .passwordEntered(let attempt): state.login.password = "SECRET-PW-\(attempt)"
    case .scratchWritten(let attempt): state.draft.scratch = "SECRET-SCRATCH-\(attempt)"
    case .cardScanned(let attempt): state.card.cvc = "SECRET-CVC-\(attempt)"
    case .endpointChosen(let endpoint): state.settings.endpoint = endpoint
    case .signedIn(let user, _): state.login.user = user
    }
    return .none
  }
}

@MainActor
@Suite("Redaction bypasses")
struct RedactionBypassTests {
  /// The rules every recording here uses.
  static let rules: [Redaction] = [.key("pw"), .key("endpoint"), .key("token")]

  /// One way a secret could slip past the rules, and the actions that put it in the trace.
  enum Bypass: String, CaseIterable, CustomTestStringConvertible {
    case renamedKey
    case keyLeftOut
    case maskedByEncode
    case rawValueEnum
    case actionPayload

    var testDescription: String { rawValue }

    /// The action of step `step`: after a few steps that change nothing secret (the differ's
    /// first walks are checked against a whole encoding), the secret changes at every step.
    func action(step: Int) -> Vault.Action {
      guard step >= 5 else { return .ticked }
      switch self {
      case .renamedKey: return .passwordEntered(attempt: step)
      case .keyLeftOut: return .scratchWritten(attempt: step)
      case .maskedByEncode: return .cardScanned(attempt: step)
      case .rawValueEnum:
        return .endpointChosen(endpoint: step.isMultiple(of: 2) ? .production : .staging)
      case .actionPayload: return .signedIn(user: "user\(step)", token: "SECRET-TOKEN-\(step)")
      }
    }
  }

  /// Records `steps` steps of `bypass` to files that rotate often, and returns every file's
  /// bytes, in the order they were written.
  func recordFiles(
    _ bypass: Bypass, steps: Int = 60, rotating: Bool = true
  ) throws -> [(name: String, bytes: [UInt8])] {
    let directory = Scratch.url("redaction")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("vault.ndjson").path
    let recorder = try TraceRecorder(
      path: path,
      options: .init(
        keyframeInterval: 4, redactions: Self.rules,
        limit: rotating ? .rotate(maxBytes: 6_000, keep: 100) : nil
      )
    )
    let store = Store(initialState: Vault.State()) { Vault().recording(to: recorder) }
    for step in 0..<steps { store.send(bypass.action(step: step)) }
    try recorder.close()
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    return try names.map { name in
      (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
    }
  }

  @Test(
    "a secret under each bypass reaches no byte of any file the recorder writes",
    arguments: Bypass.allCases
  )
  func secretNeverWritten(_ bypass: Bypass) throws {
    let files = try recordFiles(bypass)
    // Several segments, so that rotated headers (with the state and every type learned so far)
    // are among the bytes searched.
    #expect(files.count >= 3, "\(files.map(\.name))")
    let secret = Array("SECRET".utf8)
    for file in files {
      let found = file.bytes.firstRange(of: secret)
      let context = Self.context(of: found, in: file.bytes)
      #expect(found == nil, "\(file.name) holds the secret: \(context)")
    }
  }

  @Test(
    "a secret under each bypass reaches no byte of a long trace, keyframes included",
    arguments: Bypass.allCases
  )
  func secretNeverWrittenPastKeyframes(_ bypass: Bypass) throws {
    // Keyframes come once the trace has grown by 16 full states: some 400 steps here.
    let file = try #require(try recordFiles(bypass, steps: 600, rotating: false).first)
    #expect(file.bytes.firstRange(of: Array("\"kind\":\"keyframe\"".utf8)) != nil)
    let found = file.bytes.firstRange(of: Array("SECRET".utf8))
    #expect(found == nil, "\(Self.context(of: found, in: file.bytes))")
  }

  @Test("each bypass's state is recorded as its redacted encoding, step after step")
  func recordedStatesMatchTheEncoding() throws {
    for bypass in Bypass.allCases {
      let files = try recordFiles(bypass, steps: 30)
      // The newest segment, `vault.ndjson`, sorts first; the others by age from `.1` on.
      let ordered = files.dropFirst().sorted { age($0.name) > age($1.name) } + files.prefix(1)
      var state = JSONValue.null
      var expected = Vault.State()
      let reducer = Vault()
      var step = 0
      for file in ordered {
        for line in String(decoding: file.bytes, as: UTF8.self).split(separator: "\n") {
          switch try #require(try TraceRecord(json: JSONValue(parsing: String(line)))) {
          case .header(let header):
            state = header.initialState
          case .step(let record):
            state = try record.patch.apply(to: state)
            _ = reducer.reduce(into: &expected, action: bypass.action(step: step))
            step += 1
            var whole = try JSONValueEncoder().encode(expected)
            Redaction.apply(Self.rules, to: &whole, isState: true)
            // Compared apart: a failure names the step, not two whole states.
            let matches = state == whole
            #expect(matches, "\(bypass) step \(record.index)")
          default:
            break
          }
        }
      }
      #expect(step == 30)
    }
    func age(_ name: String) -> Int { Int(name.split(separator: ".").last ?? "") ?? 0 }
  }

  @Test("the raw values of a redacted enum are left out of types, but its case names are not")
  func rawValuesLeftOut() throws {
    let capture = TypeCapture(redactions: Self.rules)
    capture.learn(from: Vault.State(), isState: true)
    capture.learn(from: Vault.Action.endpointChosen(endpoint: .production), isState: false)
    let types = try #require(capture.takeNewFacts()).jsonString
    #expect(!types.contains("SECRET"), "\(types)")
    #expect(types.contains("endpointChosen"))
    // Outside the rules, the same enum's raw values are recorded as before.
    let open = TypeCapture()
    open.learn(from: Vault.Settings(endpoint: .staging), isState: true)
    #expect(try #require(open.takeNewFacts()).jsonString.contains("SECRET-ENDPOINT-STAGING"))
  }

  static func context(of range: Range<Int>?, in bytes: [UInt8]) -> String {
    guard let range else { return "" }
    let start = max(0, range.lowerBound - 60)
    let end = min(bytes.count, range.upperBound + 40)
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}
