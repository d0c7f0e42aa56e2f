import Foundation
import Recorder

/// The served page's what-ifs, with `view --serve --host`: `GET /what-if?do=skip%205` answers
/// what the stepper's `skip 5` prints, and `GET /what-if.ndjson?do=…` the new history as a
/// trace to download. Both run the recording as it is when asked, one request at a time.
// unchecked: lets, and `lock` runs one what-if at a time
final class ServedWhatIf: @unchecked Sendable {
  struct Answer {
    var status: Int
    var reason: String
    var contentType = "text/plain; charset=utf-8"
    var headers: [String] = []
    var body: [UInt8]
  }

  let path: String
  let settings: VerifyCommand.HostSettings
  private let lock = NSLock()

  init(path: String, settings: VerifyCommand.HostSettings) {
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

  private static func text(_ status: Int, _ reason: String, _ text: String) -> Answer {
    Answer(status: status, reason: reason, body: Array((text + "\n").utf8))
  }
}
