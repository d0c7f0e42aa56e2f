import Architecture
import Foundation
import Recorder
import TestSupport
import Testing

@testable import Shapes

/// Generated tests of a vault whose password, session token, entry secrets and device key are
/// redacted (`Tests/Shapes/VaultFeature.swift`, no `Codable`), recorded afresh: a redacted value
/// sent in an action is one placeholder in the action and in the state, asserted with
/// exhaustivity on; only the step that draws the device key from `uuid` turns it off. The
/// committed files (`Tests/GeneratedTests/Generated/VaultTraceTests.swift`, compiled and run by
/// `swift test`, and `Mutants/VaultFeatureReplay.swift`, run here) are rewritten with
/// `RECORD_GENERATED_TESTS=1 swift test --filter VaultGenerationTests`.
@MainActor
@Suite("Generated tests of a vault whose secrets are redacted")
struct VaultGenerationTests {
  static let secrets = ["hunter2", "tok-5f1c", "pin 4921", "door 0815"]

  static let actions: [VaultFeature.Action] = [
    .binding(.set(\.$password, "hun")),
    .binding(.set(\.$password, "hunter2")),
    .signInTapped,
    .signedIn(token: "tok-5f1c"),
    .entryAdded(title: "Bank", secret: "pin 4921"),
    .entryAdded(title: "Front door", secret: "door 0815"),
    .entryRenamed(id: UUID(0), title: "Bank card"),
    .pairDeviceTapped,
    .entryRenamed(id: UUID(1), title: "Back door"),
    .signOutTapped,
    .binding(.set(\.$password, "hunter2")),
    .signInTapped,
    .signedIn(token: "tok-5f1c"),
  ]

  static func recordFresh() throws -> String {
    let directory = Scratch.url("vault")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("vault.ndjson").path
    let recorder = try TraceRecorder(
      path: path,
      options: .init(
        keyframeInterval: 0,
        redactions: [
          .key("password"), .key("token"), .key("sessionToken"), .key("secret"),
          .key("deviceKey"),
        ]))
    let store = Store(initialState: VaultFeature.State()) {
      VaultFeature().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    for action in actions { store.send(action) }
    try recorder.close()
    return path
  }

  static let outputs: [(path: String, framework: TestGenerator.Framework, name: String)] = [
    ("Tests/GeneratedTests/Generated/VaultTraceTests.swift", .swiftTesting, "VaultTraceTests"),
    ("Tests/TestGenerationTests/Mutants/VaultFeatureReplay.swift", .plain, "VaultFeatureReplay"),
  ]

  /// Generates each committed file from a fresh recording, and compares or rewrites it.
  static func generate() throws -> [String] {
    let path = try recordFresh()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let trace = try String(contentsOfFile: path, encoding: .utf8)
    for secret in secrets { #expect(!trace.contains(secret), "the trace holds \(secret)") }
    var sources: [String] = []
    for output in outputs {
      var options = TestGenerator.Options()
      options.framework = output.framework
      options.typeName = output.name
      let source = try TestGenerator(options: options).generate(tracePath: path).source
      sources.append(source)
      let url = GeneratedFile.url(output.path)
      if GeneratedFilesDriftTests.isRecording {
        try source.write(to: url, atomically: true, encoding: .utf8)
      } else {
        #expect(
          try String(contentsOf: url, encoding: .utf8) == source,
          """
          \(output.path) is not what gen-test writes today; rewrite it with \
          RECORD_GENERATED_TESTS=1 swift test --filter VaultGenerationTests
          """)
      }
    }
    return sources
  }

  @Test("a token sent in an action is the same placeholder in the state, asserted exhaustively")
  func placeholdersFlow() throws {
    let source = try #require(try Self.generate().first)
    #expect(source.contains(#"await store.send(.signedIn(token: "<redacted>")) {"#))
    #expect(source.contains(#"$0.sessionToken = "<redacted>""#))
    #expect(source.contains(#".binding(.set(\.$password, "<redacted>"))"#))
    #expect(source.contains(#"secret: "<redacted>""#))
  }

  @Test("exhaustivity is off only for the step that draws the device key, with a comment why")
  func exhaustivityOffOnlyWhereNeeded() throws {
    let source = try #require(try Self.generate().first)
    let lines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let off = lines.indices.filter { lines[$0] == "store.exhaustivity = .off" }
    let on = lines.indices.filter { lines[$0] == "store.exhaustivity = .on" }
    #expect(off.count == 1)
    #expect(on.count == 1)
    guard let first = off.first, let back = on.first else { return }
    #expect(lines[first + 1].hasPrefix("await store.send(.pairDeviceTapped)"))
    #expect(lines[first - 1].contains("exhaustivity is off") || lines[first - 2].contains("Step 7"))
    // The step after it is checked whole again.
    #expect(lines[back + 1].hasPrefix("await store.send(.entryRenamed(id: UUID(1)"))
  }

  @Test("the generated tests pass against the unchanged reducer, in every function")
  func passOnTheUnchangedReducer() async throws {
    _ = try Self.generate()
    #expect(!VaultFeatureReplay.all.isEmpty)
    for function in VaultFeatureReplay.all {
      var thrown: (any Error)?
      let issues = await withIssueCapture {
        do { try await function.run(VaultFeatureReplay()) } catch { thrown = error }
      }
      #expect(issues.map(\.description) == [], "\(function.name)")
      #expect(thrown == nil, "\(function.name) threw \(String(describing: thrown))")
    }
  }
}
