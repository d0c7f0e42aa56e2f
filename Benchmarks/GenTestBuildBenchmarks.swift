import Foundation
import LongSessionApps

/// How long the tests `gen-test` writes for the long sessions take to build in debug (issue
/// 35's bar: 90 s on 2 cores), against building an empty test file in the same package.
///
/// Each session is recorded now, its tests are generated in both frameworks by the built
/// `tca-replay`, and a package outside this one builds them: the first build (the package's
/// dependencies) is not timed; each timed build swaps the test target's files and removes its
/// objects, so it compiles that target afresh and links it.
@MainActor
func genTestBuildBenchmarks(runs: Int, sessions: [LongSession]) async -> [Table] {
  let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("tca-replay").path
  guard FileManager.default.isExecutableFile(atPath: tool) else {
    print("error: \(tool) is missing: `swift build -c release` first")
    return []
  }
  do {
    let package = try GeneratedTestPackage(name: "gen-test-build-benchmark")
    defer { package.remove() }
    let generated = package.directory.appendingPathComponent("generated")
    try FileManager.default.createDirectory(at: generated, withIntermediateDirectories: true)
    var files: [LongSession: [GeneratedTestFile]] = [:]
    var lines: [LongSession: Int] = [:]
    for session in sessions {
      let trace = FileManager.default.temporaryDirectory
        .appendingPathComponent("gen-test-build-\(UUID().uuidString).ndjson").path
      defer { try? FileManager.default.removeItem(atPath: trace) }
      _ = try await session.record(to: trace)
      for (framework, suffix) in GeneratedTestFile.frameworks {
        let file = try GeneratedTestFile.generate(
          tool: tool, trace: trace, session: session, framework: framework, suffix: suffix,
          into: generated)
        files[session, default: []].append(file)
        lines[session, default: 0] += GeneratedTestSize(text: try file.text(), steps: 0).fileLines
      }
    }

    let empty = "import Testing\n\n@Test func nothing() {}\n"
    func build(_ contents: [(name: String, text: String)]) throws -> Double {
      let manager = FileManager.default
      for old in try manager.contentsOfDirectory(atPath: package.tests.path) {
        try manager.removeItem(at: package.tests.appendingPathComponent(old))
      }
      for (name, text) in contents {
        try text.write(
          to: package.tests.appendingPathComponent(name), atomically: true, encoding: .utf8)
      }
      // The test target's objects go, so every timed build compiles every file afresh (the
      // driver would otherwise reuse the objects of a file it compiled before, unchanged).
      try? manager.removeItem(
        at: package.directory.appendingPathComponent(
          ".build/debug/\(GeneratedTestPackage.testTarget).build"))
      let result = try package.build()
      guard result.status == 0 else { throw HarnessError(description: result.output) }
      return result.seconds * 1e9
    }
    print("Building the package's dependencies once (not timed)…")
    _ = try build([("Empty.swift", empty)])

    var samples: [String: [Double]] = [:]
    var failures: [LongSession: String] = [:]
    let baseline = "an empty test file (baseline)"
    for _ in 0..<runs {
      samples[baseline, default: []].append(try build([("Empty.swift", empty)]))
      for session in sessions where failures[session] == nil {
        let contents = try files[session, default: []].map {
          ("\($0.typeName).swift", try $0.text())
        }
        do {
          samples[session.rawValue, default: []].append(try build(contents))
        } catch {
          // Today's generator may write a file that does not compile: say so, time the rest.
          let firstError = "\(error)".split(separator: "\n").first { $0.contains("error:") }
          failures[session] = firstError.map(String.init) ?? "\(error)"
        }
      }
    }
    var table = Table(
      title: "Debug build of gen-test's files for each long session (both frameworks), "
        + "\(runs) runs, load \(loadAverage())")
    table.add(baseline, Harness.Figure(nanosecondsPerOperation: samples[baseline] ?? []))
    for session in sessions where failures[session] == nil {
      table.add(
        "\(session.rawValue): \(lines[session] ?? 0) lines",
        Harness.Figure(nanosecondsPerOperation: samples[session.rawValue] ?? []),
        baseline: baseline)
    }
    for (session, error) in failures.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      print("\(session.rawValue): its generated tests do not compile: \(error)")
    }
    return [table]
  } catch {
    print("error: \(error)")
    return []
  }
}
