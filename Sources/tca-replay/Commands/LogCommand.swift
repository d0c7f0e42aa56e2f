import Recorder

/// `tca-replay log`: one line per step.
enum LogCommand: TraceCommand {
  static let name = "log"
  static let usage = "USAGE: tca-replay log <trace>"
  static let help = """
    OVERVIEW: Print one line per step: its index, the time since recording started, where the
    action came from (sent, or from the effect of an earlier step) and the action.

    \(usage)

    ARGUMENTS:
      <trace>   A trace file, as written by Reducer.recording(to:).
    """

  static func run(_ reader: TraceReader, output: StandardStream) throws(TraceReadError) {
    var lines: [String] = []
    while let record = try reader.next() {
      guard case let .step(step) = record else { continue }
      let origin: String
      switch step.origin {
      case .send: origin = "send"
      case let .effect(cause): origin = "effect ← \(cause.map(String.init) ?? "?")"
      }
      let index = String(step.index)
      let time = formatSeconds(step.time)
      lines.append(
        String(repeating: " ", count: max(0, 6 - index.count)) + index + "  "
          + time + String(repeating: " ", count: max(0, 10 - time.count))
          + origin + String(repeating: " ", count: max(0, 12 - origin.count))
          + step.label + (step.isReplayable ? "" : "  (not replayable)")
      )
      if lines.count == 512 {
        output.write(lines.joined(separator: "\n") + "\n")
        lines.removeAll(keepingCapacity: true)
      }
    }
    if !lines.isEmpty { output.write(lines.joined(separator: "\n") + "\n") }
  }
}
