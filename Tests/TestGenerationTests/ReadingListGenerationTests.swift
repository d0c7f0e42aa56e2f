import Architecture
import Foundation
import Recorder
import TestSupport
import Testing

@testable import Shapes

/// `gen-test` on a feature whose values have no literal and whose reducer takes an init
/// parameter (`Tests/Shapes/ReadingListFeature.swift`): a state with a custom `init`, `let`
/// members, nested structs, enums with payloads, an empty struct, an alert with an empty action
/// enum and a stack. Its tests, in both frameworks, are committed in `Tests/GeneratedTests`,
/// where they compile and pass unedited in Swift 6 mode, and in `Tests/GeneratedTests5` in
/// Swift 5 mode. Rewrite them with
/// `RECORD_GENERATED_TESTS=1 swift test --filter ReadingListGenerationTests`.
@MainActor
@Suite("Generated tests that write every value as Swift")
struct ReadingListGenerationTests {
  /// Records the reading-list session into a new file and returns its path.
  func recordTrace() async throws -> String {
    let directory = Scratch.url("reading-list")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("reading-list.ndjson").path
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 10))
    let store = Store(initialState: ReadingListFeature.State()) {
      ReadingListFeature(isFavourite: { $0.hasPrefix("Dune") }).recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      // The live ids count on across the process: the committed file must not depend on what
      // ran before.
      $0.stackElementID = .incrementing()
    }
    for action in readingListSession { store.send(action) }
    try recorder.close()
    return path
  }

  static let frameworks: [(TestGenerator.Framework, String)] = [
    (.swiftTesting, "ReadingListTraceTests"), (.xctest, "ReadingListTraceXCTests"),
  ]

  func generate(_ framework: TestGenerator.Framework, name: String, from path: String) throws
    -> String
  {
    var options = TestGenerator.Options()
    options.framework = framework
    options.typeName = name
    // Short functions, so that later ones start from a state built by assignments.
    options.stepsPerTest = 5
    return try TestGenerator(options: options).generate(tracePath: path).source
  }

  @Test("the committed tests are what gen-test writes from a fresh recording, in both frameworks")
  func committedFilesAreCurrent() async throws {
    let path = try await recordTrace()
    defer { try? FileManager.default.removeItem(atPath: path) }
    for (framework, name) in Self.frameworks {
      let source = try generate(framework, name: name, from: path)
      let url = GeneratedFile.url("Tests/GeneratedTests/Generated/\(name).swift")
      if GeneratedFilesDriftTests.isRecording {
        try source.write(to: url, atomically: true, encoding: .utf8)
        continue
      }
      let committed = try String(contentsOf: url, encoding: .utf8)
      #expect(
        committed == source,
        """
        \(name).swift is not what gen-test writes today; rewrite it with \
        RECORD_GENERATED_TESTS=1 swift test --filter ReadingListGenerationTests
        """
      )
    }
  }

  @Test("no value is decoded: the states, stack, alert and enums are written as Swift")
  func nothingDecoded() async throws {
    let path = try await recordTrace()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let source = try generate(.swiftTesting, name: "ReadingListTraceTests", from: path)
    #expect(!source.contains("decoded("))
    #expect(!source.contains("Decodable"))
    // The last step changes an edition's `let` year: the edition is assigned whole, built anew.
    #expect(!source.contains(".year = "))
    #expect(source.contains("?.edition = ReadingListFeature.Edition(\n        year: 1816,"))
    // The empty settings struct is what `State()` holds already: never assigned.
    #expect(!source.contains("initialState.settings"))
  }

  /// Records the shelf browser, which starts away from its defaults, and returns its path.
  func recordShelfBrowser() async throws -> String {
    let directory = Scratch.url("shelf-browser")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("shelf-browser.ndjson").path
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 10))
    let start = withDependencies {
      $0.stackElementID = .incrementing(from: 4)
    } operation: {
      shelfBrowserStart()
    }
    let store = Store(initialState: start) {
      ShelfBrowserFeature().recording(to: recorder)
    } withDependencies: {
      $0.stackElementID = .incrementing(from: 6)
    }
    for action in shelfBrowserSession { store.send(action) }
    try recorder.close()
    return path
  }

  @Test("a state recorded away from its defaults is assembled from its stored properties, its stack by id")
  func memberwiseStart() async throws {
    let path = try await recordShelfBrowser()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let name = "ShelfBrowserTraceTests"
    let source = try generate(.swiftTesting, name: name, from: path)
    let url = GeneratedFile.url("Tests/GeneratedTests/Generated/\(name).swift")
    if GeneratedFilesDriftTests.isRecording {
      try source.write(to: url, atomically: true, encoding: .utf8)
    } else {
      #expect(
        try String(contentsOf: url, encoding: .utf8) == source,
        "\(name).swift is not what gen-test writes today; rewrite it with RECORD_GENERATED_TESTS=1")
    }
    #expect(!source.contains("decoded("))
    // A feature's state may declare an `init` of its own: it is assembled, no initializer runs.
    #expect(
      source.contains(
        "let state: ShelfBrowserFeature.State = assemble(ShelfBrowserFeature.State.self, [\n"))
    #expect(source.contains("var stack = StackState<Shapes.ReadingListFeature.Path>()"))
    #expect(source.contains("      ShelfBrowserFeature()\n"))
  }

  @Test("a reducer with an init parameter is built by a factory the user writes, named in a comment")
  func reducerFactory() async throws {
    let path = try await recordTrace()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let source = try generate(.swiftTesting, name: "ReadingListTraceTests", from: path)
    #expect(source.contains("      ReadingListFeature.forGeneratedTests()\n"))
    #expect(source.contains("ReadingListFeature stores isFavourite"))
    #expect(!source.contains("ReadingListFeature()"))
  }
}
