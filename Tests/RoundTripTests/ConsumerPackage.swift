import Foundation
import TestSupport

/// A package outside this one, laid out in a temporary directory, that depends on it by path
/// as an app's package does: only Recorder's and Architecture's `public` API is visible to it.
///
/// It holds apps' sources copied as targets of the same names, the code an app writes against
/// Recorder (`Tests/RoundTrip/Consumer`: a library that records, a replay host), and one test
/// target, where generated tests are written, built and run.
struct ConsumerPackage {
  /// An app: its name, its sources in this repository, the apps it depends on.
  struct App {
    var name: String
    var path: String
    var dependencies: [String] = []
    var swiftLanguageMode = 6
  }

  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Every app a consumer package can hold.
  static let apps: [App] = [
    App(name: "Counter", path: "Examples/Counter"),
    App(name: "Todos", path: "Examples/Todos"),
    App(name: "ComposedApp", path: "Examples/ComposedApp", dependencies: ["Counter"]),
    App(name: "Bookshelf", path: "Examples/Bookshelf"),
    App(name: "Itinerary", path: "Tests/RoundTrip/Itinerary"),
    // The TCA 1.3-style corpus, in the Swift 5 language mode it was written for.
    App(name: "PortedFeatures", path: "Tests/Ported/Features", swiftLanguageMode: 5),
    // A kiln with a planted crash, which exists only outside this package.
    App(name: "Kiln", path: "Tests/RoundTrip/Consumer/Kiln"),
  ]

  /// The apps the consumers' code uses, in every consumer package.
  static let consumersUse = ["Counter", "Kiln"]

  /// Code an app outside this package writes against Recorder: a library and an executable.
  static let consumers: [(name: String, path: String, isExecutable: Bool)] = [
    ("RecordingConsumer", "Tests/RoundTrip/Consumer/RecordingConsumer", false),
    ("ConsumerReplayHost", "Tests/RoundTrip/Consumer/ConsumerReplayHost", true),
  ]

  /// The package's name.
  let name: String
  /// The package's directory.
  let directory: URL
  /// The apps it holds, the consumers' among them.
  let apps: [App]
  /// The test target's name; its sources go in ``tests``.
  let testTarget: String

  /// Lays out a package holding the named apps (and those the consumers use), the consumers,
  /// and an empty test target that depends on every app.
  init(name: String, apps names: [String], testTarget: String) throws {
    self.name = name
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(name)-\(UUID().uuidString)")
    apps = Self.apps.filter { names.contains($0.name) || Self.consumersUse.contains($0.name) }
    self.testTarget = testTarget
    try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
    let copied = apps.map { ($0.name, $0.path) } + Self.consumers.map { ($0.name, $0.path) }
    for (target, path) in copied {
      try FileManager.default.copyItem(
        at: Self.root.appendingPathComponent(path),
        to: directory.appendingPathComponent("Sources/\(target)"))
    }
    try manifest.write(
      to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
  }

  /// The test target's folder.
  var tests: URL { directory.appendingPathComponent("Tests/\(testTarget)") }

  /// Where `swift build` puts the package's executables.
  var executables: URL { directory.appendingPathComponent(".build/debug") }

  /// Removes the package, unless `KEEP` is set to look at it.
  func remove() {
    if ProcessInfo.processInfo.environment["KEEP"] == nil {
      try? FileManager.default.removeItem(at: directory)
    } else {
      print("kept \(directory.path)")
    }
  }

  /// Runs a shell command in the package's directory.
  func shell(_ command: String) async throws -> (status: Int32, output: String) {
    let result = try await ChildProcess.runDetached(
      "/bin/sh", ["-c", command], directory: directory.path)
    return (result.status, String(decoding: result.output + result.errors, as: UTF8.self))
  }

  /// Builds the package and its tests; the build's last 40 lines when it fails.
  func build() async throws -> (status: Int32, output: String) {
    try await shell("swift build --build-tests > build.log 2>&1 || { tail -40 build.log; exit 1; }")
  }

  var manifest: String {
    let rootName = Self.root.lastPathComponent
    let products = ["Architecture", "Recorder"].map {
      ".product(name: \"\($0)\", package: \"\(rootName)\")"
    }
    let targets = apps.map { app in
      let dependencies = app.dependencies.map { "\"\($0)\"" } + [products[0]]
      let mode = app.swiftLanguageMode == 5 ? ", swiftSettings: [.swiftLanguageMode(.v5)]" : ""
      let list = dependencies.joined(separator: ", ")
      return "    .target(name: \"\(app.name)\", dependencies: [\(list)]\(mode)),"
    }
    let consumerTargets = Self.consumers.map { consumer in
      let kind = consumer.isExecutable ? "executableTarget" : "target"
      let recording = consumer.isExecutable ? ["\"RecordingConsumer\""] : []
      let dependencies = (Self.consumersUse.map { "\"\($0)\"" } + recording + products)
        .joined(separator: ", ")
      return "    .\(kind)(name: \"\(consumer.name)\", dependencies: [\(dependencies)]),"
    }
    return """
      // swift-tools-version: 6.0
      import PackageDescription

      let package = Package(
        name: "\(name)",
        platforms: [.macOS(.v14)],
        dependencies: [.package(path: "\(Self.root.path)")],
        targets: [
      \((targets + consumerTargets).joined(separator: "\n"))
          .testTarget(
            name: "\(testTarget)",
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
