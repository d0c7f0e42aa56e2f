import Architecture
import Foundation
@testable import PlainFeatures
@testable import Recorder
import TestSupport
import Testing
import TraceJSON

/// The corpus of features written with no conformance (`Tests/Plain`), taken through every
/// step a user takes, on recordings made in this run: record with no edit, read in Swift form,
/// replay clean, and turn into tests that compile and pass untouched (committed in
/// `Tests/Plain/Generated`, where they run in both language modes).
@MainActor
@Suite("The plain corpus, recorded and replayed as it is")
struct PlainCorpusRoundTripTests {
  static let tool = executable("tca-replay")
  static let host = executable("plain-replay-host")

  /// One session's recording.
  struct Recording {
    let name: String
    let path: String
    let steps: Int
  }

  /// Records every session of the corpus, each into its own file in `directory`.
  static func recordAll(into directory: URL) async throws -> [Recording] {
    var recordings: [Recording] = []
    for session in PlainSessions.all {
      recordings.append(try await record(session, into: directory))
    }
    return recordings
  }

  static func record<S: PlainSession>(_ session: S.Type, into directory: URL) async throws
    -> Recording
  {
    let path = directory.appendingPathComponent(fileName(S.name) + ".ndjson").path
    let recorder = try TraceRecorder(path: path)
    await PlainSessions.run(session) { $0.recording(to: recorder) }
    try recorder.close()
    let steps = try String(contentsOfFile: path, encoding: .utf8)
      .split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"step""#) }.count
    return Recording(name: S.name, path: path, steps: steps)
  }

  static func fileName(_ name: String) -> String {
    name.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  /// A new folder for one test's recordings; under `PLAIN_TRACES_DIR`, when set, so that they
  /// can be read with the tool afterwards.
  static func temporaryDirectory() throws -> URL {
    let parent = ProcessInfo.processInfo.environment["PLAIN_TRACES_DIR"].map {
      URL(fileURLWithPath: $0)
    } ?? FileManager.default.temporaryDirectory
    let directory = parent.appendingPathComponent("plain-corpus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test("every feature records with no edit, and replays clean in isolated and cumulative mode")
  func recordAndReplay() async throws {
    let directory = try Self.temporaryDirectory()
    defer { Self.removeUnlessKept(directory) }
    var replayed = 0
    for session in PlainSessions.all {
      replayed += try await Self.recordAndReplay(session, into: directory)
    }
    #expect(replayed == PlainSessions.all.count * 2)
  }

  static func recordAndReplay<S: PlainSession>(_ session: S.Type, into directory: URL)
    async throws -> Int
  {
    let recording = try await record(session, into: directory)
    #expect(recording.steps >= 10, "\(S.name)")
    let text = try String(contentsOfFile: recording.path, encoding: .utf8)
    #expect(!text.contains(#""action":null"#), "\(S.name): an action did not encode")
    #expect(!text.contains("Reflected"), "\(S.name)")
    var clean = 0
    for mode in [ReplayMode.isolated, .cumulative] {
      let report = try Replayer(
        reducer: ReflectingReducer(base: S.makeReducer()),
        // Nothing pinned, as in a host that serves the features as they are.
        options: .init(mode: mode, maximumDivergences: 3)
      ).replay(tracePath: recording.path)
      #expect(report.replayed == recording.steps, "\(S.name) \(mode)")
      #expect(report.matches, "\(S.name) \(mode): \(report)")
      #expect(report.notReplayable.isEmpty, "\(S.name) \(mode): \(report.notReplayable)")
      if report.matches { clean += 1 }
    }
    return clean
  }

  @Test("verify through a replay host that serves the features as they are is clean")
  func verifyThroughHost() async throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let recordings = try await Self.recordAll(into: directory)
    let result = try await ChildProcess.runDetached(
      Self.tool, ["verify", directory.path, "--host", Self.host], timeLimit: 600)
    let output = String(decoding: result.output + result.errors, as: UTF8.self)
    #expect(result.status == 0, "\(output)")
    #expect(output.contains("\(recordings.count) ok, 0 diverge"), "\(output)")
  }

  @Test("every trace reads in Swift form: no opaque value, no encoding's dictionary")
  func readsInSwiftForm() async throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for recording in try await Self.recordAll(into: directory) {
      for arguments in [["state", recording.path, "last"], ["log", recording.path]] {
        let result = try await ChildProcess.runDetached(Self.tool, arguments)
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(result.status == 0, "\(recording.name): \(arguments[0])")
        #expect(!output.contains("$opaque"), "\(recording.name): \(arguments[0])\n\(output)")
        // What a value read from its encoding prints: a payload's `_0`, a binding's `set`, an
        // index set's ranges.
        for raw in [#""_0""#, #"["set""#, #"["indexes""#, "location:"] {
          #expect(!output.contains(raw), "\(recording.name): \(arguments[0])\n\(output)")
        }
      }
    }
  }

  /// Removes `directory`, unless `PLAIN_TRACES_DIR` asks to keep the recordings.
  static func removeUnlessKept(_ directory: URL) {
    guard ProcessInfo.processInfo.environment["PLAIN_TRACES_DIR"] == nil else { return }
    try? FileManager.default.removeItem(at: directory)
  }

  /// An executable built next to the test bundle.
  static func executable(_ name: String) -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent(name).path
  }
}

/// `gen-test` on every feature of the corpus. The files it writes are committed in
/// `Tests/Plain/Generated`, where `PlainGeneratedTests` (Swift 5 mode) and
/// `PlainGeneratedTests6` (Swift 6 mode) compile and run them as they are. Rewrite them with
/// `RECORD_GENERATED_TESTS=1 swift test --filter PlainCorpusGenerationTests`.
@MainActor
@Suite("The plain corpus's generated tests")
struct PlainCorpusGenerationTests {
  static let isRecording = ProcessInfo.processInfo.environment["RECORD_GENERATED_TESTS"] == "1"

  @Test("the committed tests are what gen-test writes from fresh recordings, in both frameworks")
  func committedFilesAreCurrent() async throws {
    let directory = try PlainCorpusRoundTripTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let recordings = try await PlainCorpusRoundTripTests.recordAll(into: directory)
    for recording in recordings {
      let base = PlainCorpusRoundTripTests.fileName(recording.name)
      for (framework, suffix) in [
        (TestGenerator.Framework.swiftTesting, "TraceTests"), (.xctest, "TraceXCTests"),
      ] {
        var options = TestGenerator.Options()
        options.framework = framework
        options.typeName = base + suffix
        let source = try TestGenerator(options: options).generate(tracePath: recording.path)
          .source
        #expect(!source.contains("decoded("), "\(base)\(suffix) decodes a value")
        let url = Self.url("Tests/Plain/Generated/Generated/\(base)\(suffix).swift")
        if Self.isRecording {
          try source.write(to: url, atomically: true, encoding: .utf8)
          continue
        }
        let committed = try? String(contentsOf: url, encoding: .utf8)
        #expect(
          committed == source,
          """
          \(base)\(suffix).swift is not what gen-test writes today; rewrite it with \
          RECORD_GENERATED_TESTS=1 swift test --filter PlainCorpusGenerationTests
          """
        )
      }
    }
  }

  static func url(_ relativePath: String) -> URL {
    // Tests/Plain/RoundTrip/ThisFile.swift → the package's root.
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(relativePath)
  }
}
