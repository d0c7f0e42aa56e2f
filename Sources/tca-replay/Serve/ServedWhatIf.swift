import Foundation
import Recorder
import TraceJSON

/// What the served page asks the replay host, with `view --serve --host`: `GET /what-if?do=skip%205`
/// answers what the stepper's `skip 5` prints, `GET /what-if.ndjson?do=…` the new history as a
/// trace to download, and `GET /blame?step=5` which reducer wrote each path step 5 changed (the
/// diff's "changed by" column). Each runs the recording as it is when asked, one at a time.
// unchecked: lets, and `lock` runs one request at a time
final class ServedWhatIf: @unchecked Sendable {
  struct Answer {
    var status: Int
    var reason: String
    var contentType = "text/plain; charset=utf-8"
    var headers: [String] = []
    var body: [UInt8]
  }

  let path: String
  let settings: HostSettings
  private let lock = NSLock()

  init(path: String, settings: HostSettings) {
    self.path = path
    self.settings = settings
  }

  /// Runs `command` (`skip <step>`, `edit <step> <action>`, `insert <step> <action>`).
  func answer(_ command: String, asTrace: Bool) -> Answer {
    lock.lock()
    defer { lock.unlock() }
    let words = command.trimmingWhitespace.split(separator: " ", maxSplits: 1).map(String.init)
    guard let name = words.first, ["skip", "edit", "insert"].contains(name) else {
      return Self.text(400, "Bad Request", "What if: skip <step>, edit <step> <action> or insert <step> <action>")
    }
    let argument = words.count > 1 ? words[1] : nil
    do {
      let whatIf = WhatIf(trace: try TraceIndex(path: path), settings: settings)
      let report = try whatIf.perform(name, argument, style: .plain)
      // The page offers a download where the stepper says `save`.
      let shown = report.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("'save <file>'") }.joined(separator: "\n")
      guard asTrace else { return Self.text(200, "OK", shown) }
      let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("tca-replay-what-if-\(UUID().uuidString).ndjson").path
      defer { unlink(file) }
      _ = try whatIf.save(to: file)
      return Answer(
        status: 200, reason: "OK", contentType: "application/x-ndjson",
        headers: [#"Content-Disposition: attachment; filename="what-if.ndjson""#],
        body: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    } catch let error as UsageError {
      return Self.text(400, "Bad Request", error.message)
    } catch {
      return Self.text(500, "Internal Server Error", "\(error)")
    }
  }

  /// Blames `step` (a step number) through the host, as JSON for the page:
  /// `{"step":5,"changes":[{"path":"/todos/0/isComplete","by":["TodoFeature.swift:41 (Reduce) ← …"]}]}`,
  /// with `by` holding each writer's chain, innermost first, in the order they wrote.
  func blame(_ step: String) -> Answer {
    lock.lock()
    defer { lock.unlock() }
    do {
      let trace = try TraceIndex(path: path)
      guard let index = Int(step), trace.stepIndices.contains(index) else {
        return Self.text(400, "Bad Request", "Blame: no step \(step) in \(path)")
      }
      let host = try settings.start()
      defer { host.finish() }
      switch try host.blame(path: path, step: index) {
      case let .refused(_, message):
        return Self.text(502, "Bad Gateway", "Blame: \(message)")
      case let .crashed(crash):
        return Self.text(
          502, "Bad Gateway",
          "Blame: step \(index) crashed the reducer (signal \(crash.signal)); see \(crash.log)")
      case let .blame(reply):
        var text = BlameText(
          values: trace.valueText(), after: (try? trace.state(afterStep: index)) ?? .null,
          filter: nil)
        let changes: [JSONValue] = reply.changes.map { change in
          [
            "path": .string(change.path.description),
            "by": .array(text.writers(of: change, label: reply.label).map { .string($0) }),
          ]
        }
        let json: JSONValue = ["step": .integer(Int64(index)), "changes": .array(changes)]
        return Answer(
          status: 200, reason: "OK", contentType: "application/json",
          body: json.jsonBytes + [10])
      }
    } catch let error as HostError {
      return Self.text(502, "Bad Gateway", "Blame: \(error)")
    } catch {
      return Self.text(500, "Internal Server Error", "\(error)")
    }
  }

  private static func text(_ status: Int, _ reason: String, _ text: String) -> Answer {
    Answer(status: status, reason: reason, body: Array((text + "\n").utf8))
  }
}
