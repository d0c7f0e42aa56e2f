import Architecture
import TraceJSON

extension TestGenerator {
  /// Runs today's reducer on each step whose state or action holds a redacted value, to learn
  /// whether the step reads that value, so that a generated test can stand a placeholder in for
  /// it, or say that the user must supply it.
  ///
  /// The command-line tool cannot run an app's reducer; code that can (a test target, a small
  /// script in the app's package) passes one:
  ///
  /// ```swift
  /// var options = TestGenerator.Options()
  /// options.redactionCheck = .reducing(CheckoutFeature())
  /// ```
  ///
  /// A step reads a redacted value when what it computes (the state, as the recorder writes
  /// it, how many effects it starts, the dependency values it reads) changes with the
  /// placeholder standing in for it, or differs from the recording outside what was redacted.
  package struct RedactionCheck: Sendable {
    /// What a step computes from `state` and `action`; `nil` when either does not decode.
    let outcome:
      @Sendable (
        _ state: JSONValue, _ action: JSONValue, _ dependencies: [DependencyValue],
        _ redactions: [Redaction]
      ) -> Outcome?

    /// What a step computed, for comparing runs with different placeholders.
    struct Outcome: Equatable {
      var state: JSONValue
      var effects: Int
      var reads: DependencyReadsDifference?
    }

    /// Runs `reducer`; `withDependencies` pins what the trace cannot hold (the app's clients)
    /// while states decode and steps reduce.
    package static func reducing<Base: Reducer & SendableMetatype>(
      _ reducer: Base,
      withDependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
    ) -> Self where Base.State: Codable, Base.Action: Codable {
      let box = UncheckedBox(reducer)
      return Self { state, action, dependencies, redactions in
        outcome(of: box, state, action, dependencies, redactions, withDependencies)
      }
    }

    /// What `box`'s reducer computes for `action` from `state`, with the step's dependency
    /// values fed in; `nil` when either does not decode.
    private static func outcome<Base: Reducer>(
      of box: UncheckedBox<Base>, _ state: JSONValue, _ action: JSONValue,
      _ dependencies: [DependencyValue], _ redactions: [Redaction],
      _ withDependencies: (inout DependencyValues) -> Void
    ) -> Outcome? where Base.State: Codable, Base.Action: Codable {
      let decoder = JSONValueDecoder()
      let feed = DependencyFeed()
      feed.load(dependencies)
      var values = DependencyValues._current
      withDependencies(&values)
      feed.install(into: &values)
      var effect = Effect<Base.Action>.none
      // Decoded in the same dependencies: a default value may read a client the caller pins.
      let reduced: Base.State? = DependencyValues.$_current.withValue(values) {
        guard var value = try? decoder.decode(Base.State.self, from: state),
          let sent = try? decoder.decode(Base.Action.self, from: action)
        else { return nil }
        // Compared, never run; what the reducer reports is the test's to report.
        _ = withIssueCapture {
          feed.withRecordedSettings { effect = box.value.reduce(into: &value, action: sent) }
        }
        return value
      }
      guard let value = reduced else { return nil }
      guard var json = try? JSONValueEncoder().encode(value) else { return nil }
      Redaction.apply(redactions, to: &json, isState: true)
      return Outcome(state: json, effects: effect.runCount, reads: feed.readsDifference)
    }

    /// Whether `step`, reduced from `before` (both as recorded, with their redacted values),
    /// reads a redacted value; `placeholders` makes the stand-ins.
    func reads(
      _ step: TraceStep, before: JSONValue, after: JSONValue, header: TraceHeader,
      placeholders: RedactionPlaceholders
    ) -> Bool {
      let action = step.action ?? .null
      var outcomes: [Outcome] = []
      for variant in [RedactionPlaceholders.Variant.first, .other] {
        let state = placeholders.fill(before, type: header.stateType, variant: variant).value
        let sent = placeholders.fill(action, type: header.actionType, variant: variant).value
        guard let outcome = outcome(state, sent, step.dependencies, header.redactions) else {
          return true
        }
        outcomes.append(outcome)
      }
      return outcomes[0] != outcomes[1]
        || !StateDifference.between(expected: after, actual: outcomes[0].state).isEmpty
    }
  }
}
