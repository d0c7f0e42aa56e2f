import TraceJSON

extension ReplayReport: CustomStringConvertible {
  /// The report as `tca-replay bisect` prints it: a verdict line, then each detailed
  /// divergence's action, origin, the steps before it and the state differences.
  ///
  /// ```
  /// Traces/todos.ndjson: step 23 diverges from the recording (isolated replay of 412 steps)
  ///   action  .saved
  ///   origin  effect of step 22
  ///   …
  /// ```
  ///
  /// Values read as the stepper shows them, by the types of the trace when it can be read:
  /// a date in ISO 8601, a counting UUID as `UUID(3)`.
  public var description: String { description(values: StateValueText(traceAt: trace)) }

  /// The report with its values written by `values`, in the Swift form of the trace's types;
  /// without its warnings when `warnings` is false, for a caller that prints them apart.
  package func description(values: StateValueText, warnings: Bool = true) -> String {
    var lines: [String] = []
    let replay =
      mode == .cumulative && !matches
      ? "cumulative replay from the initial state"
      : "\(mode.rawValue) replay of \(counted(steps, "step"))"
    if let divergence = firstDivergence {
      let stillCrashes =
        divergence.reason == .crashed && recordedCrash?.step == divergence.step
        && recordedCrash?.outcome == .crashes
      let verdict =
        stillCrashes
        ? "still crashes the reducer, as when recorded"
        : divergence.reason == .crashed
          ? "crashed the reducer" : "diverges from the recording\(divergence.aspect)"
      lines.append("\(trace): step \(divergence.step) \(verdict) (\(replay))")
      lines += divergence.detailLines(values: values)
      // Every divergence the report details (all of them with `--all`), then a count of the rest.
      for other in divergences.dropFirst() {
        lines.append("step \(other.step) also diverges\(other.aspect)")
        lines += other.detailLines(values: values)
      }
      let rest = divergentSteps - max(divergences.count, 1)
      if rest > 0 {
        lines.append(
          "  \(rest) more \(noun(rest, "step")) \(verb(rest, "diverges", "diverge"))"
            + (divergences.count > 1 ? "" : " (bisect --all details them)"))
      }
    } else {
      lines.append("\(trace): no divergence (\(replay), \(replayed) replayed)")
    }
    if let recordedCrash, recordedCrash.outcome != .crashes {
      lines.append("  " + recordedCrash.sentence)
    }
    if unknown > 0 {
      lines.append("  \(counted(unknown, "step")) unknown (reads redacted data)")
    }
    if !notReplayable.isEmpty {
      let listed = notReplayable.prefix(5).map { "\($0.step.index) (\($0.reason))" }
      lines.append(
        "  not replayable: " + listed.joined(separator: ", ")
          + (notReplayable.count > 5 ? ", and \(notReplayable.count - 5) more" : "")
      )
    }
    for item in notCompared ?? [] { lines.append("  not compared: \(item)") }
    for read in unpinnedReads ?? [] {
      lines.append("  unpinned: " + read.sentence(reducer: reducer))
    }
    if warnings { lines += self.warnings }
    return lines.joined(separator: "\n")
  }
}

extension Divergence: CustomStringConvertible {
  /// The divergence on its own: step, action, origin, the steps before it and the differences.
  package var description: String {
    (["step \(step) diverges from the recording\(aspect)"] + detailLines(values: .untyped))
      .joined(separator: "\n")
  }

  /// ` in effects` or ` in dependency reads` when only those differ; else nothing.
  var aspect: String {
    switch reason {
    case .effects: " in effects"
    case .dependencyReads: " in dependency reads"
    default: ""
    }
  }

  /// The indented lines under a verdict, values written by `values`.
  func detailLines(values: StateValueText) -> [String] {
    var lines = ["  action  \(label)", "  origin  \(origin)"]
    if !precedingSteps.isEmpty {
      lines.append("  after")
      // The labels start in one column, two spaces after the longest origin.
      let width = max(18, (precedingSteps.map { $0.origin.description.count }.max() ?? 0) + 2)
      for summary in precedingSteps {
        let index = String(summary.index)
        let origin = summary.origin.description
        lines.append(
          "    " + String(repeating: " ", count: max(0, 6 - index.count)) + index + "  "
            + origin + String(repeating: " ", count: width - origin.count) + summary.label
        )
      }
    }
    switch reason {
    case .state:
      let count = differences.count
      lines.append(
        "  state   \(counted(count, "difference")) (expected −, actual +)"
      )
      for difference in differences.prefix(20) {
        lines.append("    \(difference.path.description.isEmpty ? "/" : difference.path.description)")
        if let movedTo = difference.movedTo {
          lines.append("      moved to \(movedTo)")
          continue
        }
        lines.append("      − \(values.text(difference.expected, at: difference.path))")
        lines.append("      + \(values.text(difference.actual, at: difference.path))")
      }
      if count > 20 { lines.append("    … and \(count - 20) more") }
    case .actionDoesNotDecode:
      lines.append(
        "  the recorded action no longer decodes at \(codingPath ?? "the top level"): "
          + (message ?? "")
      )
    case .stateDoesNotDecode:
      lines.append(
        "  the recorded state before this step no longer decodes at "
          + "\(codingPath ?? "the top level"): \(message ?? "")"
      )
    case .stateDoesNotEncode:
      lines.append("  the replayed state does not encode: \(message ?? "")")
    case .effects, .dependencyReads:
      break  // Their lines follow.
    case .crashed:
      lines.append("  crash   \(Self.describe(signal: signal ?? 0))")
      for line in (message ?? "").split(separator: "\n").prefix(3) { lines.append("    \(line)") }
    }
    lines += effects?.lines ?? []
    lines += dependencyReads?.lines ?? []
    // Reports from hosts that predate `dependencyReads` say it in notes.
    if extraDependencyReads > 0, dependencyReads == nil {
      lines.append(
        "  note    the reducer read \(counted(extraDependencyReads, "dependency value")) "
          + "more than recorded; stand-ins were used"
      )
    }
    if unreadDependencyValues > 0, dependencyReads == nil {
      lines.append(
        "  note    \(unreadDependencyValues) recorded dependency value"
          + "\(unreadDependencyValues == 1 ? " was" : "s were") not read this time"
      )
    }
    for issue in issues.prefix(3) {
      lines.append("  issue   " + (issue.split(separator: "\n").first.map(String.init) ?? ""))
    }
    return lines
  }
}
