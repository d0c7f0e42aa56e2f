import Architecture
import Foundation
import Recorder
import TestSupport
import Testing

@testable import Shapes

/// The generator on a trace holding every `Codable` shape a state may have (see
/// `Tests/Shapes`): the generated tests are committed in `Tests/GeneratedTests`, where they must
/// compile and pass unedited. Rewrite them with
/// `RECORD_GENERATED_TESTS=1 swift test --filter ShapesTraceTests`.
@MainActor
@Suite("Generated tests for every Codable shape")
struct ShapesTraceTests {
  static let output = "Tests/GeneratedTests/Generated/ShapesTraceTests.swift"

  /// Records the shapes session into a new file and returns its path.
  func recordTrace() async throws -> String {
    let directory = Scratch.url("shapes")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("shapes.ndjson").path
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 10))
    let store = Store(initialState: ShapesFeature.State()) {
      ShapesFeature().recording(to: recorder)
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 800_000_000))
    }
    for action in shapesSession { store.send(action) }
    try recorder.close()
    return path
  }

  @Test("the committed generated tests are what gen-test writes from a fresh recording")
  func committedFileIsCurrent() async throws {
    let path = try await recordTrace()
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options = TestGenerator.Options()
    options.typeName = "ShapesTraceTests"
    options.typeCheck = .decoding(ShapesFeature.State.self, ShapesFeature.Action.self)
    let source = try TestGenerator(options: options).generate(tracePath: path).source
    let url = GeneratedFile.url(Self.output)
    if GeneratedFilesDriftTests.isRecording {
      try source.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let committed = try String(contentsOf: url, encoding: .utf8)
    #expect(
      committed == source,
      """
      \(Self.output) is not what gen-test writes today; rewrite it with \
      RECORD_GENERATED_TESTS=1 swift test --filter ShapesTraceTests
      """
    )
  }
}
