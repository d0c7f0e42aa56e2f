import TraceJSON

/// The first place where two traces differ: in an action, an origin, the dependency values read,
/// or the state a step left.
///
/// ```swift
/// let comparison = try TraceComparison("before.ndjson", "after.ndjson")
/// if let difference = comparison.firstDifference { print(difference.step, difference.kind) }
/// ```
///
/// Times and effect lifecycles are not compared: two recordings of the same session differ
/// in them by nature. A value redacted in either trace is unknown, never a difference.
package struct TraceComparison: Sendable, Equatable, Codable {
  /// The first trace.
  package var a: String
  /// The second trace.
  package var b: String
  /// How many steps both traces hold and agree on, up to the first difference.
  package var matchingSteps: Int
  /// The first difference, or `nil` when the traces agree.
  package var firstDifference: TraceDifference?

  /// Warnings about the traces, such as an incomplete last line that was skipped; `nil` when
  /// there are none.
  package var warnings: [String]?

  /// Reads the traces at `a` and `b` in step and finds their first difference.
  ///
  /// - Throws: ``ReplayError`` when either trace is missing or malformed.
  package init(_ a: String, _ b: String, precedingSteps: Int = 5) throws(ReplayError) {
    self.a = a
    self.b = b
    let left = try CheckedTraceReader.openForReplay(a)
    let right = try CheckedTraceReader.openForReplay(b)
    (matchingSteps, firstDifference) = try Self.firstDifference(
      left, right, precedingSteps: precedingSteps)
    var notes: [String] = []
    for note in [left.reader.warning, right.reader.warning] {
      if let note, !notes.contains(note) { notes.append(note) }  // `compare t t` warns once.
    }
    warnings = notes.isEmpty ? nil : notes
  }

  /// How many steps agree, and the first difference after them.
  private static func firstDifference(
    _ left: (reader: CheckedTraceReader, header: TraceHeader),
    _ right: (reader: CheckedTraceReader, header: TraceHeader), precedingSteps: Int
  ) throws(ReplayError) -> (Int, TraceDifference?) {
    var matchingSteps = 0
    // The left trace's types: differences are reported as values are shown.
    var schema = TypeSchema()
    schema.merge(left.header.types)
    let type = left.header.stateType
    func differences(_ a: JSONValue, _ b: JSONValue) -> [StateDifference] {
      Self.differences(a, b, type: type, schema: schema)
    }
    if left.header.firstStep != right.header.firstStep
      || !Self.agree(left.header.initialState, right.header.initialState)
    {
      return (
        0,
        TraceDifference(
          step: nil, kind: .initialState, labelA: nil, labelB: nil, actionA: nil, actionB: nil,
          differences: differences(left.header.initialState, right.header.initialState),
          precedingSteps: []
        )
      )
    }
    var recent = RecentSteps(capacity: precedingSteps)
    while true {
      let stepA = try left.reader.nextReplayStep()
      let stepB = try right.reader.nextReplayStep()
      guard let stepA, let stepB else {
        guard let only = stepA ?? stepB else { return (matchingSteps, nil) }
        return (
          matchingSteps,
          TraceDifference(
            step: only.step.index, kind: stepA == nil ? .onlyInB : .onlyInA,
            labelA: stepA?.step.label, labelB: stepB?.step.label, actionA: stepA?.step.action,
            actionB: stepB?.step.action, differences: [], precedingSteps: recent.summaries
          )
        )
      }
      schema.merge(stepA.step.types)
      let kind: TraceDifference.Kind?
      var found: [StateDifference] = []
      if stepA.step.action != stepB.step.action
        || (stepA.step.action == nil && stepA.step.label != stepB.step.label)
      {
        kind = .action
      } else if stepA.step.origin != stepB.step.origin {
        kind = .origin
      } else if stepA.step.dependencies != stepB.step.dependencies {
        kind = .dependencies
      } else if !Self.agree(stepA.after, stepB.after) {
        kind = .state
        found = differences(stepA.after, stepB.after)
      } else {
        kind = nil
      }
      if let kind {
        if found.isEmpty, !Self.agree(stepA.after, stepB.after) {
          found = differences(stepA.after, stepB.after)
        }
        return (
          matchingSteps,
          TraceDifference(
            step: stepA.step.index, kind: kind, labelA: stepA.step.label,
            labelB: stepB.step.label, actionA: stepA.step.action, actionB: stepB.step.action,
            originA: stepA.step.origin, originB: stepB.step.origin,
            dependenciesA: kind == .dependencies ? stepA.step.dependencies.map(\.json) : nil,
            dependenciesB: kind == .dependencies ? stepB.step.dependencies.map(\.json) : nil,
            differences: found, precedingSteps: recent.summaries
          )
        )
      }
      recent.append(stepA.step)
      matchingSteps += 1
    }
  }

  /// Whether two states agree, redacted values aside.
  private static func agree(_ a: JSONValue, _ b: JSONValue) -> Bool {
    a == b || differences(a, b).isEmpty
  }

  private static func differences(
    _ a: JSONValue, _ b: JSONValue, type: String? = nil, schema: TypeSchema = TypeSchema()
  ) -> [StateDifference] {
    StateDifference.between(expected: a, actual: b, type: type, schema: schema)
      .filter { $0.actual != Redaction.placeholder }
  }
}

/// Where two traces first differ.
package struct TraceDifference: Sendable, Equatable, Codable {
  /// What differs.
  package enum Kind: String, Sendable, Equatable, Codable {
    /// The states before the first step.
    case initialState
    /// The step's action.
    case action
    /// Where the step's action came from.
    case origin
    /// The dependency values the step read.
    case dependencies
    /// The state after the step.
    case state
    /// The first trace has this step; the second ended before it.
    case onlyInA
    /// The second trace has this step; the first ended before it.
    case onlyInB
  }

  /// The step's index; `nil` for the initial state.
  package var step: Int?
  /// What differs.
  package var kind: Kind
  /// The step's label in the first trace.
  package var labelA: String?
  /// The step's label in the second trace.
  package var labelB: String?
  /// The step's action in the first trace.
  var actionA: JSONValue?
  /// The step's action in the second trace.
  var actionB: JSONValue?
  /// The step's origin in the first trace.
  var originA: StepOrigin?
  /// The step's origin in the second trace.
  var originB: StepOrigin?
  /// The dependency values the step read in the first trace, as the trace writes them; set when
  /// they differ.
  var dependenciesA: [JSONValue]?
  /// The dependency values the step read in the second trace; set when they differ.
  var dependenciesB: [JSONValue]?
  /// Where the states after the step differ: `expected` is the first trace, `actual` the second.
  package var differences: [StateDifference]
  /// The steps before this one, on which the traces agree.
  package var precedingSteps: [StepSummary]

  init(
    step: Int?, kind: Kind, labelA: String?, labelB: String?, actionA: JSONValue?,
    actionB: JSONValue?, originA: TraceStep.Origin? = nil, originB: TraceStep.Origin? = nil,
    dependenciesA: [JSONValue]? = nil, dependenciesB: [JSONValue]? = nil,
    differences: [StateDifference], precedingSteps: [StepSummary]
  ) {
    self.step = step
    self.kind = kind
    self.labelA = labelA
    self.labelB = labelB
    self.actionA = actionA
    self.actionB = actionB
    self.originA = originA.map(StepOrigin.init)
    self.originB = originB.map(StepOrigin.init)
    self.dependenciesA = dependenciesA
    self.dependenciesB = dependenciesB
    self.differences = differences
    self.precedingSteps = precedingSteps
  }
}

extension TraceComparison: CustomStringConvertible {
  /// The comparison as `tca-replay compare` prints it.
  package var description: String { description(values: StateValueText(traceAt: a)) }

  /// The comparison with its actions and values written by `values` (the first trace's types).
  package func description(values valueText: StateValueText) -> String {
    let values = valueText
    guard let difference = firstDifference else {
      return "\(a) and \(b) agree: \(counted(matchingSteps, "step")), same actions, origins "
        + "and states"
    }
    var lines: [String] = []
    switch difference.kind {
    case .initialState:
      lines.append("\(a) and \(b) differ before the first step: the initial states differ")
    case .onlyInA, .onlyInB:
      let (longer, shorter) = difference.kind == .onlyInA ? (a, b) : (b, a)
      let label = difference.labelA ?? difference.labelB ?? ""
      lines.append(
        "\(shorter) ends after \(counted(matchingSteps, "step")); \(longer) goes on with step "
          + "\(difference.step ?? 0) \(label)"
      )
    default:
      let what: String
      switch difference.kind {
      case .action: what = "the action"
      case .origin: what = "the origin"
      case .dependencies: what = "the dependency values read"
      default: what = "the state after it"
      }
      lines.append(
        "\(a) and \(b) first differ at step \(difference.step ?? 0), in \(what) "
          + "(\(counted(matchingSteps, "step")) \(verb(matchingSteps, "agrees", "agree")) "
          + "before it)"
      )
      // Equal labels hide a difference in the action's payload: show the actions themselves.
      let showActions = difference.kind == .action && difference.labelA == difference.labelB
      for (name, label, origin, action) in [
        ("a", difference.labelA, difference.originA, difference.actionA),
        ("b", difference.labelB, difference.originB, difference.actionB),
      ] {
        lines.append(
          "  \(name)  \(label ?? "")\(origin.map { "  (\($0))" } ?? "")"
            + (showActions ? "  \(values.action(action))" : "")
        )
      }
      for (name, values) in [("a", difference.dependenciesA), ("b", difference.dependenciesB)] {
        guard let values else { continue }
        let read =
          values.isEmpty ? "nothing" : values.map(valueText.dependency).joined(separator: ", ")
        lines.append("  read \(name)  \(read)")
      }
    }
    if !difference.differences.isEmpty {
      let count = difference.differences.count
      lines.append("  state   \(counted(count, "difference")) (a −, b +)")
      for item in difference.differences.prefix(20) {
        lines.append("    \(item.path.description.isEmpty ? "/" : item.path.description)")
        if let movedTo = item.movedTo {
          lines.append("      moved to \(movedTo)")
        } else {
          lines.append("      − \(values.text(item.expected, at: item.path))")
          lines.append("      + \(values.text(item.actual, at: item.path))")
        }
      }
    }
    return lines.joined(separator: "\n")
  }
}
