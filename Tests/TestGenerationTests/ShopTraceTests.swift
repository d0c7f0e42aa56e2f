import Architecture
import Foundation
import Recorder
import TestSupport
import Testing

@testable import Shapes

/// The generator on a shop recorded now (`Tests/Shapes/ShopFeature.swift`): a `Duration`, a
/// `Date`, counting UUIDs, quantities keyed by a `ProductID` that takes an integer literal, sets
/// and nested enums. The generated tests are committed in `Tests/GeneratedTests`, where they
/// must compile and pass unedited. Rewrite them with
/// `RECORD_GENERATED_TESTS=1 swift test --filter ShopTraceTests`.
@MainActor
@Suite("Generated tests of a shop, values in Swift form")
struct ShopTraceTests {
  static let output = "Tests/GeneratedTests/Generated/ShopTraceTests.swift"

  /// Records the shop session into a new file and returns its path.
  static func recordTrace() throws -> String {
    let path = Scratch.url("shop").appendingPathComponent("shop.ndjson")
      .path
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 8))
    let store = Store(initialState: ShopFeature.State()) {
      ShopFeature().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 786_000_000.25))
    }
    for action in shopSession { store.send(action) }
    try recorder.close()
    return path
  }

  static func generate(_ path: String) throws -> GeneratedTest {
    var options = TestGenerator.Options()
    options.typeName = "ShopTraceTests"
    options.stepsPerTest = 10
    options.typeCheck = .decoding(ShopFeature.State.self, ShopFeature.Action.self)
    return try TestGenerator(options: options).generate(tracePath: path)
  }

  @Test("the committed generated tests are what gen-test writes from a fresh recording")
  func committedFileIsCurrent() throws {
    let path = try Self.recordTrace()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let source = try Self.generate(path).source
    let url = GeneratedFile.url(Self.output)
    if GeneratedFilesDriftTests.isRecording {
      try source.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      try String(contentsOf: url, encoding: .utf8) == source,
      """
      \(Self.output) is not what gen-test writes today; rewrite it with \
      RECORD_GENERATED_TESTS=1 swift test --filter ShopTraceTests
      """
    )
  }

  @Test("a later test starts from the earlier start and assignments in Swift form, not from JSON")
  func initialStateInSwift() throws {
    let path = try Self.recordTrace()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let source = try Self.generate(path).source
    #expect(source.contains("    let state = ShopFeature.State()\n"))
    // Step 10 starts after the ticks, the notes and the favourites: the start before it, changed.
    #expect(
      source.contains(
        """
          static func stateBeforeStep10() throws -> ShopFeature.State {
            var state = try stateBeforeStep0()
            state.cart.quantities[13] = 2
            state.cart.quantities[7] = 1
            state.cart.notes[13] = "gift wrap"
            state.elapsed = .milliseconds(6930)
            state.favourites = [13, 7]
            state.openedAt = Date(timeIntervalSinceReferenceDate: 786000000.25)
            return state
          }

        """))
  }

  @Test("ids are literals: UUID(0) for counting UUIDs, 13 for a ProductID")
  func idsAsLiterals() throws {
    let path = try Self.recordTrace()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let source = try Self.generate(path).source
    #expect(source.contains("await store.send(.added(13))"))
    #expect(source.contains("await store.send(.shipped(UUID(0), .courier))"))
    #expect(!source.contains("UUID(counting:"))
    #expect(!source.contains(##"decoded(#"13"#)"##))
    // No Duration as its two integers, anywhere.
    #expect(!source.contains("6930000000000000000"))
  }
}
