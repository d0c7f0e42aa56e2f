import Foundation
import TestSupport
import Testing

/// Runs the built `tca-replay` binary and captures what it prints.
enum ToolRunner {
  /// The package root: this file is `<root>/Tests/ToolTests/ToolRunner.swift`.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The `tca-replay` executable, built next to the test bundle.
  static let executable = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("tca-replay")

  static func trace(_ name: String) -> String { "Traces/\(name)" }

  struct Result {
    var status: Int32
    var output: String
    var errors: String
    /// Whether the process ended by a signal (a crash) rather than by exiting.
    var crashed: Bool
  }

  /// Runs `tca-replay` with `arguments` in the package root, feeding `input` on standard input.
  static func run(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    var variables = Scratch.environment
    variables.removeValue(forKey: "NO_COLOR")
    for (key, value) in environment { variables[key] = value }
    let child = try ChildProcess.run(
      executable.path, arguments, directory: packageRoot.path, environment: variables,
      input: Data((input ?? "").utf8)
    )
    return Result(
      // As Foundation's `terminationStatus`: the signal's number when a signal ended it.
      status: child.signal ?? child.status,
      output: String(decoding: child.output, as: UTF8.self),
      errors: String(decoding: child.errors, as: UTF8.self),
      crashed: child.signal != nil
    )
  }

  /// Compares `text` with `Golden/<name>`, or rewrites the file when `UPDATE_GOLDENS=1`.
  static func expectGolden(
    _ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let url = packageRoot.appendingPathComponent("Tests/ToolTests/Golden/\(name)")
    if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
      try Data(text.utf8).write(to: url)
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
      text == expected,
      "differs from Tests/ToolTests/Golden/\(name); rerun with UPDATE_GOLDENS=1 to accept",
      sourceLocation: sourceLocation
    )
  }
}
