import Recorder

/// `tca-replay summary`: what a trace holds, at a glance.
enum SummaryCommand: TraceCommand {
  static let name = "summary"
  static let usage = "USAGE: tca-replay summary <trace>"
  static let help = """
    OVERVIEW: Show what a trace holds: its types, steps, duration, origins, effects,
    redacted paths, and whether it is complete and every patch applies.

    \(usage)

    ARGUMENTS:
      <trace>   A trace file, as written by Reducer.recording(to:).
    """

  static func run(_ reader: TraceReader, output: StandardStream) throws(TraceReadError) {
    var header: TraceHeader?
    var state = JSONValue.null
    var steps = 0
    var sent = 0
    var fromEffects = 0
    var notReplayable = 0
    var duration = 0.0
    var effects: [EffectEvent.Kind: Int] = [:]
    var keyframes = 0
    var ended = false
    while let record = try reader.next() {
      switch record {
      case let .header(value):
        header = value
        state = value.initialState
      case let .step(step):
        do {
          state = try step.patch.apply(to: state)
        } catch {
          throw TraceReadError(
            path: reader.path, line: reader.line, kind: .malformed,
            message: "the patch of step \(step.index) does not apply: \(error)"
          )
        }
        steps += 1
        duration = step.time
        if case .send = step.origin { sent += 1 } else { fromEffects += 1 }
        if !step.isReplayable { notReplayable += 1 }
      case let .keyframe(keyframe):
        keyframes += 1
        if keyframe.state != state {
          throw TraceReadError(
            path: reader.path, line: reader.line, kind: .malformed,
            message: "the keyframe after step \(keyframe.index) differs from the state the "
              + "patches rebuild"
          )
        }
      case let .effect(event):
        effects[event.event, default: 0] += 1
      case let .end(end):
        ended = true
        duration = end.time
      }
    }
    guard let header else { return }
    let redactions =
      header.redactions.isEmpty ? "none" : header.redactions.map(\.description).joined(separator: ", ")
    let integrity =
      ended
      ? "complete: ends with an end record; every patch applies"
      : "no end record (the recorder did not close); every patch applies"
    output.write(
      """
      \(reader.path)
        reducer      \(header.reducer)
        state        \(header.stateType)
        action       \(header.actionType)
        recorded     \(header.started) by \(header.tool), format version \(header.version)
        steps        \(steps) over \(formatSeconds(duration)), \(keyframes) keyframes (every \(header.keyframeInterval))
        origins      \(sent) sent, \(fromEffects) from effects\(notReplayable > 0 ? ", \(notReplayable) not replayable" : "")
        effects      \(effects[.started, default: 0]) started, \(effects[.finished, default: 0]) finished, \(effects[.cancelled, default: 0]) cancelled
        redactions   \(redactions)
        integrity    \(integrity)

      """
    )
  }
}

func formatSeconds(_ seconds: Double) -> String {
  let milliseconds = (seconds * 1000).rounded()
  return "\(milliseconds / 1000) s"
}
