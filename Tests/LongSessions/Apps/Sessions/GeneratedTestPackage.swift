import Foundation
import TestSupport

/// A package in a temporary directory that depends on this one by path, holding the long
/// sessions' apps as target `LongSessionApps` and one test target for generated tests.
///
/// Only the apps are copied (not these sessions), so the package sees Architecture's `public`
/// API only, as an app's own package does.
public struct GeneratedTestPackage: Sendable {
  /// The test target's name.
  public static let testTarget = "LongSessionGeneratedTests"

  /// This repository's root.
  public static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The package's directory.
  public let directory: URL

  /// Lays out the package: the apps' sources, a manifest, an empty test target.
  public init(name: String) throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(name)-\(UUID().uuidString)")
    let manager = FileManager.default
    try manager.createDirectory(at: tests, withIntermediateDirectories: true)
    let apps = Self.root.appendingPathComponent("Tests/LongSessions/Apps")
    for folder in ["ChatRoom", "Ledger", "Warehouse"] {
      try manager.createDirectory(at: sources, withIntermediateDirectories: true)
      try manager.copyItem(
        at: apps.appendingPathComponent(folder), to: sources.appendingPathComponent(folder))
    }
    try manifest.write(
      to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
  }

  /// The apps' folder in the package.
  public var sources: URL { directory.appendingPathComponent("Sources/LongSessionApps") }

  /// The test target's folder, where generated tests go.
  public var tests: URL { directory.appendingPathComponent("Tests/\(Self.testTarget)") }

  /// Removes the package, unless `KEEP` is set to look at it.
  public func remove() {
    if ProcessInfo.processInfo.environment["KEEP"] == nil {
      try? FileManager.default.removeItem(at: directory)
    } else {
      print("kept \(directory.path)")
    }
  }

  /// Runs a shell command in the package's directory: its status, output and errors.
  public func shell(_ command: String) throws -> (status: Int32, output: String) {
    let result = try ChildProcess.run("/bin/sh", ["-c", command], directory: directory.path)
    return (result.status, String(decoding: result.output + result.errors, as: UTF8.self))
  }

  /// Builds the package and its tests in debug; the build's last 60 lines when it fails, and
  /// the seconds it took.
  public func build() throws -> (status: Int32, output: String, seconds: Double) {
    let start = ContinuousClock.now
    let result = try shell(
      "swift build --build-tests > build.log 2>&1 || { tail -60 build.log; exit 1; }")
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds)
      + Double(elapsed.components.attoseconds) / 1e18
    return (result.status, result.output, seconds)
  }

  /// Runs the built tests (both runners); their status and output.
  public func test() throws -> (status: Int32, output: String) {
    try shell("swift test --skip-build 2>&1")
  }

  /// Changes one line of an app's source: `original` must occur exactly once in `file`.
  public func mutate(_ file: String, replacing original: String, with changed: String) throws {
    let url = sources.appendingPathComponent(file)
    let text = try String(contentsOf: url, encoding: .utf8)
    let pieces = text.components(separatedBy: original)
    guard pieces.count == 2 else {
      throw HarnessError(
        description: "\(file): '\(original)' occurs \(pieces.count - 1) times, not once")
    }
    try pieces.joined(separator: changed).write(to: url, atomically: true, encoding: .utf8)
  }

  var manifest: String {
    let rootName = Self.root.lastPathComponent
    return """
      // swift-tools-version: 6.0
      import PackageDescription

      let package = Package(
        name: "long-session-generated-tests",
        platforms: [.macOS(.v14)],
        dependencies: [.package(path: "\(Self.root.path)")],
        targets: [
          .target(
            name: "LongSessionApps",
            dependencies: [.product(name: "Architecture", package: "\(rootName)")]
          ),
          .testTarget(
            name: "\(Self.testTarget)",
            dependencies: [
              "LongSessionApps", .product(name: "Architecture", package: "\(rootName)"),
            ]
          ),
        ]
      )

      """
  }
}

/// What went wrong in the harness itself (not in the code it measures).
public struct HarnessError: Error, CustomStringConvertible {
  /// What failed, with the output that says why.
  public var description: String

  /// An error that says `description`.
  public init(description: String) { self.description = description }
}
