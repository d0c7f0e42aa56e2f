import Recorder
import TraceJSON

/// `tca-replay summary`: what a trace holds, at a glance, after checking every line.
enum SummaryCommand: Command {
  static let name = "summary"
  static let abstract = "Types, steps, duration, origins, effects, redactions, integrity."
  static let overview = """
    Show what a trace holds: its types, steps, duration, origins, effects,
    redacted paths, and whether it is complete and every patch applies.

    The whole trace is read and checked: every line parses, every patch applies, and every
    keyframe matches the state the patches rebuild. A trace whose app crashed says so: the
    signal, and the step being reduced, which did not finish.
    """
  static let positionals = [Positional.trace]
  static let json = Flag("--json", help: "Print one JSON object instead of text.")
  static let options: [any CommandOption] = [json]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let path = arguments.positionals[0]
    let summary: Summary
    // On every core first; a trace with anything to report is read again, checked, by the
    // reader whose words every command uses.
    if let scanned = Summary(scanning: path) {
      summary = scanned
    } else {
      let reader = try CheckedTraceReader(path: path)
      summary = try Summary(reading: reader)
      if let warning = reader.warning { context.errors.write(warning + "\n") }
    }
    if arguments[Self.json] {
      context.output.writeJSON(summary.json.jsonString + "\n")
    } else {
      context.output.write(summary.text(path: path))
    }
    return .success
  }
}

/// The facts `summary` prints, gathered in one checked pass over the trace.
struct Summary {
  var header: TraceHeader
  var steps = 0
  var sent = 0
  var fromEffects = 0
  var notReplayable = 0
  var duration = 0.0
  var effects: [EffectEvent.Kind: Int] = [:]
  var keyframes = 0
  var ended = false
  /// Steps the recorder lost to failed writes, as its `gap` records declare them.
  var gaps: [TraceGap] = []
  var crash: TraceCrash?

  /// Reads the whole trace through the checked reader, whose first problem is the verdict.
  init(reading reader: CheckedTraceReader) throws(TraceReadError) {
    guard case .header(let header) = try reader.next() else {
      preconditionFailure("CheckedTraceReader returns a header first or throws")
    }
    self.header = header
    while let record = try reader.next() {
      switch record {
      case .header:
        break  // The checked reader refuses a second header.
      case .step(let step):
        steps += 1
        duration = step.time
        if case .send = step.origin { sent += 1 } else { fromEffects += 1 }
        if !step.isReplayable { notReplayable += 1 }
        effects[.started, default: 0] += step.effects.count
      case .keyframe:
        keyframes += 1
      case .effect(let event):
        effects[event.event, default: 0] += 1
      case .end(let end):
        ended = true
        duration = end.time
      case .gap(var gap):
        gap.state = .null  // Not shown; a big state need not stay in memory.
        gaps.append(gap)
      case .crash(let record):
        crash = record
        duration = max(duration, record.time)
      }
    }
  }

  /// Reads the whole trace with ``CheckedTraceReader/Scan``, on every core; `nil` when the trace
  /// needs the checked reader's verdict (a problem, a blank line, an incomplete last line).
  init?(scanning path: String) {
    var header: TraceHeader?
    var summary: Summary?
    let scan = CheckedTraceReader.Scan.self
    let outcome = try? scan.run(path: path, options: .init(labels: false)) { chunk in
      if let first = chunk.header {
        header = first
        summary = Summary(header: first)
      }
      guard summary != nil else { return }
      summary!.steps += chunk.stepCount
      summary!.sent += chunk.sent
      summary!.fromEffects += chunk.stepCount - chunk.sent
      summary!.notReplayable += chunk.notReplayable
      if let time = chunk.lastTime { summary!.duration = time }
      summary!.effects[.started, default: 0] += chunk.effectsStarted
      for (kind, count) in chunk.effectEvents { summary!.effects[kind, default: 0] += count }
      summary!.keyframes += chunk.keyframes
      if chunk.end != nil { summary!.ended = true }
    }
    guard outcome == .complete, header != nil, let summary else { return nil }
    self = summary
  }

  private init(header: TraceHeader) {
    self.header = header
  }

  /// The facts for people; every field from the trace on one line, its control characters
  /// escaped.
  func text(path: String) -> String {
    let redactions =
      header.redactions.isEmpty
      ? "none"
      : header.redactions.map(\.description.escapingControlCharacters).joined(separator: ", ")
    let integrity =
      if let crash {
        crashSentence(crash) + "; every patch applies"
      } else if ended {
        "complete: ends with an end record; every patch applies"
      } else {
        "no end record (the recorder did not close); every patch applies"
      }
    let metadata =
      header.metadata.isEmpty
      ? "none"
      : header.metadata.sorted { $0.key < $1.key }
        .map { "\($0.key.escapingControlCharacters)=\($0.value.escapingControlCharacters)" }
        .joined(separator: ", ")
    let recorded =
      header.started.escapingControlCharacters + " by " + header.tool.escapingControlCharacters
    let keyframeText = counted(keyframes, "keyframe") + " (every \(header.keyframeInterval))"
    let notReplayableText = notReplayable > 0 ? ", \(notReplayable) not replayable" : ""
    let lost = gaps.map {
      "\n  lost         steps \($0.from)…\($0.to): \($0.reason.escapingControlCharacters)"
    }.joined()
    return """
      \(path)
        reducer      \(header.reducer.escapingControlCharacters)
        state        \(header.stateType.escapingControlCharacters)
        action       \(header.actionType.escapingControlCharacters)
        recorded     \(recorded), format version \(header.version)
        steps        \(steps) over \(formatSeconds(duration)), \(keyframeText)
        origins      \(sent) sent, \(fromEffects) from effects\(notReplayableText)
        effects      \(effects[.started, default: 0]) started, \(effects[.finished, default: 0]) finished, \(effects[.cancelled, default: 0]) cancelled
        redactions   \(redactions)
        metadata     \(metadata)
        integrity    \(integrity)\(lost)

      """
  }

  var json: JSONValue {
    var object = JSONObject()
    object["reducer"] = .string(header.reducer)
    object["stateType"] = .string(header.stateType)
    object["actionType"] = .string(header.actionType)
    object["version"] = .integer(Int64(header.version))
    object["tool"] = .string(header.tool)
    object["started"] = .string(header.started)
    object["firstStep"] = .integer(Int64(header.firstStep))
    object["steps"] = .integer(Int64(steps))
    object["duration"] = .double(duration)
    object["keyframes"] = .integer(Int64(keyframes))
    object["keyframeInterval"] = .integer(Int64(header.keyframeInterval))
    object["sent"] = .integer(Int64(sent))
    object["fromEffects"] = .integer(Int64(fromEffects))
    object["notReplayable"] = .integer(Int64(notReplayable))
    object["effects"] = .object(
      JSONObject(
        [EffectEvent.Kind.started, .finished, .cancelled].map {
          ($0.rawValue, JSONValue.integer(Int64(effects[$0, default: 0])))
        }
      )
    )
    object["redactions"] = .array(header.redactions.map { .string($0.description) })
    object["metadata"] = .object(
      JSONObject(header.metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    )
    object["complete"] = .bool(ended)
    if !gaps.isEmpty {
      object["lost"] = .array(
        gaps.map {
          [
            "from": .integer(Int64($0.from)), "to": .integer(Int64($0.to)),
            "reason": .string($0.reason),
          ]
        })
    }
    if let crash {
      // The crash record, less the action's JSON, which `step`/`show` print.
      guard case .object(var record) = TraceRecord.crash(crash).json else { return .null }
      for key in ["kind", "action"] { _ = record.removeValue(forKey: key) }
      object["crash"] = .object(record)
    }
    return .object(object)
  }
}
