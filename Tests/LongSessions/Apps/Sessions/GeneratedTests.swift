import Foundation
import TestSupport

/// One generated test file of a long session: which session, which framework, where it is.
public struct GeneratedTestFile: Sendable {
  /// gen-test's frameworks, with the suffix each file's type name takes.
  public static let frameworks = [("swift-testing", "Tests"), ("xctest", "XCTests")]

  /// The session whose recording the file tests.
  public var session: LongSession
  /// `swift-testing` or `xctest`.
  public var framework: String
  /// The type name, which is also the file's name without `.swift`.
  public var typeName: String
  /// Where the file is.
  public var path: String

  /// Runs `tool gen-test` on `trace`, a recording of `session`, writing the test into
  /// `directory`; throws with gen-test's errors when it fails.
  public static func generate(
    tool: String, trace: String, session: LongSession, framework: String, suffix: String,
    into directory: URL
  ) throws -> GeneratedTestFile {
    let typeName = session.reducerName + suffix
    let path = directory.appendingPathComponent("\(typeName).swift").path
    let run = try ChildProcess.run(
      tool,
      ["gen-test", trace, "--framework", framework, "--name", typeName, "--output", path])
    guard run.status == 0 else {
      throw HarnessError(
        description: "gen-test \(session.rawValue) --framework \(framework) exited "
          + "\(run.status): \(String(decoding: run.errors, as: UTF8.self))")
    }
    return GeneratedTestFile(session: session, framework: framework, typeName: typeName, path: path)
  }

  /// The file's text.
  public func text() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
}

/// A one-line change to an app's reducer that first matters at a step a trace can name.
public struct Mutant: Sendable {
  /// The file, under the apps' folder.
  public var file: String
  /// The text changed, which must occur once in the file.
  public var original: String
  /// What it becomes.
  public var changed: String
  /// Text of the label of the first step the change matters at.
  public var labelContaining: String

  /// The mutant of each session's app.
  public static func of(_ session: LongSession) -> Mutant {
    switch session {
    case .chatRoom:
      // An expired typing indicator stays: first matters when one expires.
      Mutant(
        file: "ChatRoom/ChatRoom.swift",
        original: "case let .peerTypingExpired(name):\n        state.typingUsers[name] = nil",
        changed: "case let .peerTypingExpired(name):\n        _ = name",
        labelContaining: ".peerTypingExpired(")
    case .ledger:
      // Flags can be cleared but never set: the session's first toggle sets one.
      Mutant(
        file: "Ledger/Ledger.swift",
        original:
          "if state.flagged.remove(address.name) == nil { state.flagged.insert(address.name) }",
        changed: "_ = state.flagged.remove(address.name)",
        labelContaining: ".flagToggled(")
    case .warehouse:
      // A pick's timer counts two seconds a tick: first matters at the first tick.
      Mutant(
        file: "Warehouse/Bin.swift",
        original: "elapsed: elapsed + .seconds(1))",
        changed: "elapsed: elapsed + .seconds(2))",
        labelContaining: ".pickTicked)")
    }
  }

  /// The index of the first step of the trace at `path` whose label holds ``labelContaining``.
  public func firstStep(inTraceAt path: String) throws -> Int? {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let needle = "\"label\":\""
    for line in text.split(separator: "\n") where line.hasPrefix(#"{"kind":"step""#) {
      guard let label = line.range(of: needle).map({ line[$0.upperBound...] }),
        label.prefix(while: { $0 != "\"" }).contains(labelContaining),
        let index = line.range(of: #""index":"#).map({ line[$0.upperBound...] })
      else { continue }
      return Int(index.prefix { $0.isNumber })
    }
    return nil
  }
}

/// The steps at which a test run's failures were reported in each generated file: every
/// `File.swift:LINE` the output names, mapped to the `// Step N` block holding that line.
public func failingSteps(
  in output: String, files: [GeneratedTestFile]
) throws -> [String: [Int]] {
  var steps: [String: [Int]] = [:]
  for file in files {
    let text = try file.text()
    let marker = "\(file.typeName).swift:"
    var rest = Substring(output)
    while let range = rest.range(of: marker) {
      rest = rest[range.upperBound...]
      guard let line = Int(rest.prefix { $0.isNumber }),
        let step = GeneratedTestSize.step(atLine: line, in: text)
      else { continue }
      steps[file.typeName, default: []].append(step)
    }
  }
  return steps
}
