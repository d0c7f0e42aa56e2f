/// How a step's effects differ: what the recorded step started and cancelled, and what today's
/// reducer's returned effect starts and cancels.
///
/// Compared without running anything, so scheduling cannot change the verdict: the number of
/// `.run` effects started, the cancellation ids the effect cancels as it starts
/// (`.cancel(id:)`, `cancellable(id:cancelInFlight: true)`), and the ids its runs can be
/// cancelled by (`cancellable(id:)`). Ids are compared as `String(reflecting:)` prints them,
/// after the ids of the `forEach` rows and presentations they were made under.
package struct EffectsDifference: Sendable, Equatable, Codable {
  /// How many effects the recorded step started.
  package var recordedStarts: Int
  /// How many effects today's reducer starts for the step.
  package var replayedStarts: Int
  /// The ids the recorded step cancelled; `nil` when the trace does not record them
  /// (format version 2 and earlier).
  package var recordedCancels: [String]?
  /// The ids today's reducer cancels for the step.
  package var replayedCancels: [String]
  /// The ids the recorded step's effects could be cancelled by; `nil` when not recorded.
  package var recordedCancellable: [String]?
  /// The ids today's reducer's effects can be cancelled by.
  package var replayedCancellable: [String]
}

/// How a step's reads of `uuid`, `date`, `withRandomNumberGenerator` and `stackElementID`
/// differ: how many of each kind the recording read, and how many today's reducer reads.
///
/// Values are fed back in their recorded order, so equal counts mean equal values; a read
/// beyond the recorded ones gets a stand-in.
package struct DependencyReadsDifference: Sendable, Equatable, Codable {
  /// Reads by kind (`uuid`, `date`, `random`, `stackElementID`) when recorded.
  package var recorded: [String: Int]
  /// Reads by kind by today's reducer.
  package var replayed: [String: Int]
}

extension EffectsDifference {
  /// The indented lines a report prints for it.
  var lines: [String] {
    var lines = ["  effects differ (recorded −, today +)"]
    if recordedStarts != replayedStarts {
      lines.append("    started")
      lines.append("      − \(Self.count(recordedStarts))")
      lines.append("      + \(Self.count(replayedStarts))")
    }
    if let recorded = recordedCancels, recorded != replayedCancels {
      lines.append("    cancels")
      lines.append("      − \(Self.list(recorded))")
      lines.append("      + \(Self.list(replayedCancels))")
    }
    if let recorded = recordedCancellable, recorded != replayedCancellable {
      lines.append("    cancellable by")
      lines.append("      − \(Self.list(recorded))")
      lines.append("      + \(Self.list(replayedCancellable))")
    }
    return lines
  }

  private static func count(_ number: Int) -> String {
    counted(number, "effect")
  }

  private static func list(_ ids: [String]) -> String {
    ids.isEmpty ? "no id" : ids.joined(separator: ", ")
  }
}

extension DependencyReadsDifference {
  /// The indented lines a report prints for it.
  var lines: [String] {
    [
      "  dependency reads differ (recorded −, today +)",
      "      − \(Self.describe(recorded))",
      "      + \(Self.describe(replayed))",
    ]
  }

  private static func describe(_ counts: [String: Int]) -> String {
    let names = [
      ("uuid", "uuid", "uuids"), ("date", "date", "dates"),
      ("random", "random number", "random numbers"),
      ("stackElementID", "stack element id", "stack element ids"),
    ]
    let listed = names.compactMap { kind, one, many in
      counts[kind].flatMap { $0 > 0 ? "\($0) \($0 == 1 ? one : many)" : nil }
    }
    return listed.isEmpty ? "none" : listed.joined(separator: ", ")
  }
}
