import Foundation
import TestSupport
import Testing

/// `gen-test` on fresh recordings: every session is recorded now, turned into tests in both
/// frameworks, and those tests are built and run, in a package of their own, against the
/// unchanged reducers. Each must pass, or the generator cries wolf. The package also builds an
/// app that records and a replay host (`Tests/RoundTrip/Consumer`): outside this package, only
/// Recorder's `public` API is visible to them.
@Suite("Generated tests of fresh recordings pass on unchanged code", .tags(.slow), .slowSuite)
struct GeneratedTestRoundTripTests {
  @Test("gen-test's XCTest and Swift Testing output for every session compiles and passes")
  @MainActor
  func generatedTestsPass() async throws {
    let package = try ConsumerPackage(
      name: "generated-round-trip", apps: ConsumerPackage.apps.map(\.name),
      testTarget: "FreshGeneratedTests")
    defer { package.remove() }
    let tests = package.tests

    var sessions: [(name: String, record: () async throws -> String)] = []
    for session in FreshSession.allCases { sessions.append((session.rawValue, session.record)) }
    for session in PortedSession.allCases { sessions.append((session.rawValue, session.record)) }
    for session in sessions {
      let trace = try await session.record()
      defer { try? FileManager.default.removeItem(atPath: trace) }
      let name = session.name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
        .joined()
      for (framework, suffix) in [("swift-testing", "Tests"), ("xctest", "XCTests")] {
        let output = tests.appendingPathComponent("\(name)Fresh\(suffix).swift").path
        let run = try await ChildProcess.runDetached(
          FreshReplayTests.executable("tca-replay"),
          ["gen-test", trace, "--framework", framework, "--name", "\(name)Fresh\(suffix)",
           "--output", output])
        #expect(run.status == 0, "\(String(decoding: run.errors, as: UTF8.self))")
      }
    }

    let result = try await package.shell(
      "swift build --build-tests > build.log 2>&1 || { tail -40 build.log; exit 1; }; "
        + "swift test --skip-build 2>&1")
    let output = result.output
    let failures = output.split(separator: "\n").filter {
      $0.contains("error:") || $0.hasPrefix("✘") || $0.contains(" failed (")
    }
    #expect(result.status == 0 && failures.isEmpty, "\(failures.prefix(60).joined(separator: "\n"))\n\(output.suffix(3000))")
    // Both runners ran tests: the closing lines name how many.
    #expect(output.contains("Executed "), "\(output.suffix(2000))")
    #expect(output.contains("Test run with "), "\(output.suffix(2000))")
  }
}
