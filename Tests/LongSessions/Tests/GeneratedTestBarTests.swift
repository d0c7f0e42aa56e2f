import Foundation
import LongSessionApps
import TestSupport
import Testing

/// Issue 35's bar for `gen-test` on the long sessions, recorded in this run: the size of the
/// generated files, and that they pass on the unchanged apps and fail at the mutated step.
///
/// `LONG_SESSIONS=chat-room,ledger` limits the run to those sessions (the builds are long).
@Suite("gen-test on the long sessions meets issue 35's bar", .tags(.slow), .slowSuite)
struct GeneratedTestBarTests {
  static let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("tca-replay").path

  static var sessions: [LongSession] {
    guard let names = ProcessInfo.processInfo.environment["LONG_SESSIONS"] else {
      return LongSession.allCases
    }
    return names.split(separator: ",").compactMap { LongSession(rawValue: String($0)) }
  }

  /// Records each session and writes its tests in both frameworks into `directory`.
  @MainActor
  static func generate(
    _ sessions: [LongSession] = sessions, into directory: URL
  ) async throws -> [(file: GeneratedTestFile, trace: String, steps: Int)] {
    var files: [(file: GeneratedTestFile, trace: String, steps: Int)] = []
    for session in sessions {
      let trace = temporaryTrace(session)
      let steps = try await session.record(to: trace)
      for (framework, suffix) in GeneratedTestFile.frameworks {
        let file = try GeneratedTestFile.generate(
          tool: tool, trace: trace, session: session, framework: framework, suffix: suffix,
          into: directory)
        files.append((file, trace, steps))
      }
    }
    return files
  }

  @Test("median <= 4 lines per step and whole file <= 5 lines per step, in both frameworks")
  @MainActor
  func sizeBars() async throws {
    let directory = Scratch.url("long-session-sizes")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    // KEEP=1 keeps the generated files, to read them.
    defer {
      if ProcessInfo.processInfo.environment["KEEP"] == nil {
        try? FileManager.default.removeItem(at: directory)
      } else {
        print("kept \(directory.path)")
      }
    }
    let files = try await Self.generate(into: directory)
    var table = [
      "| session | framework | steps | lines | median lines/step | file lines/step |",
      "|---|---|---:|---:|---:|---:|",
    ]
    var sizes: [(String, GeneratedTestSize)] = []
    for (file, trace, steps) in files {
      let size = GeneratedTestSize(text: try file.text(), steps: steps)
      sizes.append(("\(file.session.rawValue) \(file.framework)", size))
      table.append(
        "| \(file.session.rawValue) | \(file.framework) | \(steps) | \(size.fileLines) | "
          + "\(String(format: "%.1f", size.medianLinesPerStep)) | "
          + "\(String(format: "%.1f", size.fileLinesPerStep)) |")
      if ProcessInfo.processInfo.environment["KEEP"] == nil {
        try? FileManager.default.removeItem(atPath: trace)
      } else {
        print("kept \(trace)")
      }
    }
    print(table.joined(separator: "\n"))
    for (name, size) in sizes {
      #expect(size.medianLinesPerStep <= 4, "\(name): median \(size.medianLinesPerStep)")
      #expect(size.fileLinesPerStep <= 5, "\(name): \(size.fileLinesPerStep) lines a step")
    }
  }

  /// Each session in a package of its own, one after another: a file that does not compile
  /// fails only its own session.
  @Test(
    "the generated tests pass on the unchanged app and fail at the mutated step", .serialized,
    arguments: sessions)
  @MainActor
  func passThenFailAtTheStep(session: LongSession) async throws {
    let package = try GeneratedTestPackage(name: "long-session-gen-test-\(session.rawValue)")
    defer { package.remove() }
    let generated = try await Self.generate([session], into: package.tests)
    let trace = try #require(generated.first?.trace)
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let files = generated.map(\.file)

    let build = try package.build()
    try #require(build.status == 0, "the generated tests do not compile:\n\(build.output)")
    print("built \(session.rawValue)'s generated tests in \(Int(build.seconds)) s")
    let unchanged = try package.test()
    let unchangedFailures = try failingSteps(in: unchanged.output, files: files)
    #expect(
      unchanged.status == 0 && unchangedFailures.isEmpty,
      "failing steps on the unchanged app: \(unchangedFailures)\n\(unchanged.output.suffix(3000))")
    #expect(unchanged.output.contains("Executed "), "\(unchanged.output.suffix(2000))")
    #expect(unchanged.output.contains("Test run with "), "\(unchanged.output.suffix(2000))")

    // One line changed in the app: each file must fail first at the step it first matters at.
    let mutant = Mutant.of(session)
    try package.mutate(mutant.file, replacing: mutant.original, with: mutant.changed)
    let expected = try #require(
      try mutant.firstStep(inTraceAt: trace), "no step \(mutant.labelContaining)")
    let rebuild = try package.build()
    try #require(rebuild.status == 0, "the mutant does not compile:\n\(rebuild.output)")
    let mutated = try package.test()
    #expect(mutated.status != 0)
    let failures = try failingSteps(in: mutated.output, files: files)
    for file in files {
      let first = failures[file.typeName]?.min()
      #expect(
        first == expected,
        """
        \(file.typeName): first failure at step \(first.map(String.init) ?? "none"), \
        the mutant first matters at step \(expected)
        """)
    }
  }
}
