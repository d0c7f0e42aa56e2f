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
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The apps' sources, copied into the package as targets of the same names.
  static let apps: [(name: String, path: String, dependencies: [String])] = [
    ("Counter", "Examples/Counter", []),
    ("Todos", "Examples/Todos", []),
    ("ComposedApp", "Examples/ComposedApp", ["Counter"]),
    ("Bookshelf", "Examples/Bookshelf", []),
    ("Itinerary", "Tests/RoundTrip/Itinerary", []),
    // The TCA 1.3-style corpus, in the Swift 5 language mode it was written for.
    ("PortedFeatures", "Tests/Ported/Features", []),
  ]

  /// Code an app outside this package writes against Recorder: a library and an executable.
  static let consumers: [(name: String, path: String, isExecutable: Bool)] = [
    ("RecordingConsumer", "Tests/RoundTrip/Consumer/RecordingConsumer", false),
    ("ConsumerReplayHost", "Tests/RoundTrip/Consumer/ConsumerReplayHost", true),
  ]

  @Test("gen-test's XCTest and Swift Testing output for every session compiles and passes")
  @MainActor
  func generatedTestsPass() async throws {
    let package = FileManager.default.temporaryDirectory
      .appendingPathComponent("generated-round-trip-\(UUID().uuidString)")
    defer {
      if ProcessInfo.processInfo.environment["KEEP"] == nil {
        try? FileManager.default.removeItem(at: package)
      }
    }
    let tests = package.appendingPathComponent("Tests/FreshGeneratedTests")
    try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
    let copied = Self.apps.map { ($0.name, $0.path) } + Self.consumers.map { ($0.name, $0.path) }
    for (name, path) in copied {
      try FileManager.default.copyItem(
        at: Self.root.appendingPathComponent(path),
        to: package.appendingPathComponent("Sources/\(name)"))
    }
    try Self.manifest.write(
      to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

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

    let result = try await ChildProcess.runDetached(
      "/bin/sh",
      [
        "-c",
        "swift build --build-tests > build.log 2>&1 || { tail -40 build.log; exit 1; }; "
          + "swift test --skip-build 2>&1",
      ],
      directory: package.path)
    let output = String(decoding: result.output + result.errors, as: UTF8.self)
    let failures = output.split(separator: "\n").filter {
      $0.contains("error:") || $0.hasPrefix("✘") || $0.contains(" failed (")
    }
    #expect(result.status == 0 && failures.isEmpty, "\(failures.prefix(60).joined(separator: "\n"))\n\(output.suffix(3000))")
    // Both runners ran tests: the closing lines name how many.
    #expect(output.contains("Executed "), "\(output.suffix(2000))")
    #expect(output.contains("Test run with "), "\(output.suffix(2000))")
  }

  static var manifest: String {
    let rootName = root.lastPathComponent
    let targets = apps.map { app in
      let dependencies =
        app.dependencies.map { "\"\($0)\"" }
        + [".product(name: \"Architecture\", package: \"\(rootName)\")"]
      let mode = app.name == "PortedFeatures" ? ", swiftSettings: [.swiftLanguageMode(.v5)]" : ""
      return "    .target(name: \"\(app.name)\", dependencies: [\(dependencies.joined(separator: ", "))]\(mode)),"
    }
    let products = ["Architecture", "Recorder"].map {
      ".product(name: \"\($0)\", package: \"\(rootName)\")"
    }
    let consumerTargets = consumers.map { consumer in
      let kind = consumer.isExecutable ? "executableTarget" : "target"
      let dependencies = (["\"Counter\""] + products).joined(separator: ", ")
      return "    .\(kind)(name: \"\(consumer.name)\", dependencies: [\(dependencies)]),"
    }
    return """
      // swift-tools-version: 6.0
      import PackageDescription

      let package = Package(
        name: "generated-round-trip",
        platforms: [.macOS(.v14)],
        dependencies: [.package(path: "\(root.path)")],
        targets: [
      \((targets + consumerTargets).joined(separator: "\n"))
          .testTarget(
            name: "FreshGeneratedTests",
            dependencies: [
              \(apps.map { "\"\($0.name)\"" }.joined(separator: ", ")),
              .product(name: "Architecture", package: "\(rootName)"),
            ]
          ),
        ]
      )

      """
  }
}
