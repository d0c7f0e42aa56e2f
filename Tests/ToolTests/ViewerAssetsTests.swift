import Foundation
import Testing

@testable import tca_replay

/// The viewer's script and style are edited as `.js` and `.css` files and compiled in from a
/// generated Swift file; these tests keep the two from drifting apart.
@Suite("The viewer's assets")
struct ViewerAssetsTests {
  static let assets = ToolRunner.packageRoot.appendingPathComponent(
    "Sources/tca-replay/Viewer/Assets")

  static let regenerate =
    "Sources/tca-replay/Viewer/ViewerAssets.generated.swift differs from Viewer/Assets: "
    + "run Scripts/embed-viewer-assets"

  /// The viewer's script in pieces, in the order they make one function body.
  static let viewerScripts = [
    "viewer-data.js", "viewer-list.js", "viewer-tree.js", "viewer-search.js",
    "viewer-timeline.js", "viewer-start.js", "viewer-grow.js",
  ]

  @Test("the compiled-in script is every viewer-*.js file, in order, byte for byte")
  func script() throws {
    let files = try Self.viewerScripts.map {
      try String(contentsOf: Self.assets.appendingPathComponent($0), encoding: .utf8)
    }
    #expect(ViewerAssets.script == files.joined(), "\(Self.regenerate)")
    let present = try FileManager.default.contentsOfDirectory(atPath: Self.assets.path)
      .filter { $0.hasPrefix("viewer-") && $0.hasSuffix(".js") }
    #expect(Set(present) == Set(Self.viewerScripts), "a viewer-*.js file is not in the script")
  }

  @Test("the compiled-in Swift-form script is values.js, byte for byte")
  func values() throws {
    let file = try String(
      contentsOf: Self.assets.appendingPathComponent("values.js"), encoding: .utf8)
    #expect(ViewerAssets.values == file, "\(Self.regenerate)")
  }

  @Test("the compiled-in label script is label.js, byte for byte")
  func label() throws {
    let file = try String(
      contentsOf: Self.assets.appendingPathComponent("label.js"), encoding: .utf8)
    #expect(ViewerAssets.label == file, "\(Self.regenerate)")
  }

  @Test("the compiled-in live script is live.js, byte for byte")
  func live() throws {
    let file = try String(
      contentsOf: Self.assets.appendingPathComponent("live.js"), encoding: .utf8)
    #expect(ViewerAssets.live == file, "\(Self.regenerate)")
  }

  @Test("the compiled-in style sheet is viewer.css, byte for byte")
  func style() throws {
    let file = try String(
      contentsOf: Self.assets.appendingPathComponent("viewer.css"), encoding: .utf8)
    #expect(ViewerAssets.style == file, "\(Self.regenerate)")
  }

  /// `node`, where it is on the PATH.
  static let node = (ProcessInfo.processInfo.environment["PATH"] ?? "")
    .split(separator: ":").map { "\($0)/node" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    "the scripts parse (node --check)", .enabled(if: node != nil, "node is not installed"),
    arguments: ["label.js", "values.js"] + viewerScripts + ["live.js"])
  func scriptParses(_ name: String) throws {
    // NB: node reads a file as a CommonJS module, which is a function body as the page's
    // viewer-*.js are, so viewer-data.js's early `return` parses.
    let node = try #require(Self.node)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: node)
    process.arguments = ["--check", Self.assets.appendingPathComponent(name).path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "node --check found a syntax error in \(name)")
  }
}
