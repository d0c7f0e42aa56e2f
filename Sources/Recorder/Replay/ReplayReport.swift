import TraceJSON

/// What a replay found: how many steps it replayed, which diverged, and which it could not check.
///
/// ```swift
/// let report = try assertReplay(trace: "bug.ndjson", reducer: CounterFeature())
/// #expect(report.unknown == 0)
/// ```
///
/// A report is `Codable`: the replay host sends it to `tca-replay` as JSON
/// (`Documentation/ReplayHostProtocol.md`), and `tca-replay bisect --json` prints it.
public struct ReplayReport: Sendable, Equatable, Codable {
  /// The trace file replayed.
  public internal(set) var trace: String
  /// The recorded reducer's type name, from the trace header.
  public internal(set) var reducer: String
  /// How the steps were replayed.
  public internal(set) var mode: ReplayMode
  /// How many steps the trace holds (as far as it was read).
  public internal(set) var steps: Int
  /// How many steps were run through the reducer.
  public internal(set) var replayed: Int
  /// How many steps disagreed with the recording, in all; ``divergences`` details the first.
  public internal(set) var divergentSteps: Int
  /// The first divergences, by step; as many as ``Replayer/Options/maximumDivergences``.
  package var divergences: [Divergence]
  /// Steps that could not be replayed, such as an action that was not encoded when recorded.
  package var notReplayable: [SkippedStep]
  /// Steps whose outcome is unknown because they read redacted data: their action or state
  /// holds a redacted value and what they computed differs from the recording.
  public internal(set) var unknown: Int
  /// Things worth knowing that are not divergences: another build's fingerprint, a torn line;
  /// each a whole line naming the trace, `file:line: warning: message`, as compilers warn.
  public internal(set) var warnings: [String]
  /// What the trace does not record and so was not compared, such as the cancellation ids of a
  /// trace of format version 2; `nil` when everything was.
  package var notCompared: [String]? = nil
  /// The crash the trace ends in, and what replaying its step found; `nil` when the trace
  /// did not end in a crash of a step.
  package var recordedCrash: RecordedCrash? = nil
  /// The app's dependencies the replay read with nothing pinning them, the first step of each;
  /// `nil` when there were none.
  package var unpinnedReads: [UnpinnedRead]? = nil

  /// The first step where today's reducer disagrees with the recording, if any.
  package var firstDivergence: Divergence? { divergences.first }

  /// Whether every replayed step reproduced the recording.
  public var matches: Bool { divergentSteps == 0 }
}

/// How a replay runs the recorded actions through today's reducer.
public enum ReplayMode: String, Sendable, Equatable, Codable, CaseIterable {
  /// Each step starts from the recorded state before it. Runs on every core and finds every
  /// step where the reducers disagree, each on its own terms.
  case isolated
  /// One run from the initial state, as the user experienced it; stops at the first divergence,
  /// after which every state differs.
  case cumulative
}

/// A step whose replay disagrees with the recording.
package struct Divergence: Sendable, Equatable, Codable {
  /// What kind of disagreement this is.
  package enum Reason: String, Sendable, Equatable, Codable {
    /// The reducer computed a different state; ``Divergence/differences`` says where.
    case state
    /// The recorded action no longer decodes as today's `Action`; ``Divergence/codingPath``
    /// names the field.
    case actionDoesNotDecode
    /// The recorded state before the step no longer decodes as today's `State`.
    case stateDoesNotDecode
    /// The state the reducer computed cannot be encoded.
    case stateDoesNotEncode
    /// The state matches, but the effect started or cancelled other effects than recorded;
    /// ``Divergence/effects`` says how.
    case effects
    /// The state and effects match, but the reducer read other dependency values than
    /// recorded; ``Divergence/dependencyReads`` says how.
    case dependencyReads
    /// The reducer crashed (trapped) on the step: ``Divergence/signal`` ended the replay host,
    /// and ``Divergence/message`` holds the first lines of the reason.
    case crashed
  }

  /// The step's index in the trace.
  package var step: Int
  /// The action's short label, as recorded: `.todo(id: 0000…0001, action: .checkboxTapped)`.
  package var label: String
  /// The recorded action.
  package var action: JSONValue?
  /// Where the action came from.
  package var origin: StepOrigin
  /// What kind of disagreement this is.
  package var reason: Reason
  /// Where the states differ, expected (recorded) against actual (replayed).
  package var differences: [StateDifference]
  /// For a value that no longer decodes: the coding path, like `todos[3].createdAt`.
  package var codingPath: String?
  /// For a value that no longer decodes or encodes: the decoder's or encoder's message.
  package var message: String?
  /// The steps just before this one, oldest first.
  package var precedingSteps: [StepSummary]
  /// Dependency values the reducer read this time beyond those recorded (stand-ins were used).
  package var extraDependencyReads: Int
  /// Dependency values recorded for the step that the reducer did not read this time.
  package var unreadDependencyValues: Int
  /// Issues the reducer reported while replaying the step, such as an action for a missing row.
  package var issues: [String]
  /// How the effects differ, when they do (whatever the ``reason``).
  package var effects: EffectsDifference? = nil
  /// How the dependency reads differ, when they do (whatever the ``reason``).
  package var dependencyReads: DependencyReadsDifference? = nil
  /// For a crash: the signal that ended the replay host (4, SIGILL, for a Swift runtime trap).
  package var signal: Int? = nil
}

/// One difference between the recorded and the replayed state.
package struct StateDifference: Sendable, Equatable, Codable {
  /// Where, as a JSON Pointer into the state: `/todos/0/isComplete`.
  package var path: JSONPointer
  /// The recorded value; `nil` when the recorded state has nothing there.
  package var expected: JSONValue?
  /// The replayed value; `nil` when the replayed state has nothing there.
  package var actual: JSONValue?
  /// For an element found elsewhere in the replayed array: where it went.
  var movedTo: JSONPointer?

  /// Creates a difference.
  package init(
    path: JSONPointer, expected: JSONValue?, actual: JSONValue?, movedTo: JSONPointer? = nil
  ) {
    self.path = path
    self.expected = expected
    self.actual = actual
    self.movedTo = movedTo
  }
}

/// Where a step's action came from, as a report states it.
package struct StepOrigin: Sendable, Equatable, Codable, CustomStringConvertible {
  /// `send` or `effect`.
  package var kind: String
  /// For `effect`: the step whose effect sent the action, when it was recorded.
  package var cause: Int?

  init(_ origin: TraceStep.Origin) {
    switch origin {
    case .send: self.kind = "send"
    case let .effect(cause):
      self.kind = "effect"
      self.cause = cause
    }
  }

  /// `send`, `effect of step 4`, or `effect`.
  package var description: String {
    guard kind == "effect" else { return kind }
    return cause.map { "effect of step \($0)" } ?? "effect"
  }
}

/// A step named in a report: its index, label and origin.
package struct StepSummary: Sendable, Equatable, Codable {
  /// The step's index.
  package var index: Int
  /// The action's label.
  package var label: String
  /// Where the action came from.
  package var origin: StepOrigin

  init(_ step: TraceStep) {
    index = step.index
    label = step.label
    origin = StepOrigin(step.origin)
  }
}

/// A step a replay passed over, and why.
package struct SkippedStep: Sendable, Equatable, Codable {
  /// The step.
  package var step: StepSummary
  /// Why it could not be replayed.
  package var reason: String
}
