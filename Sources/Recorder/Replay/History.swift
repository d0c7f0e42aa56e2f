import TraceJSON

/// A session to run through today's reducer from a trace's initial state: some of the trace's
/// steps, in order, and new actions among them. `tca-replay shrink` runs sub-sessions of a
/// recording; the stepper's `skip`, `edit` and `insert` run the recording with one change.
///
/// A replay host runs it on request (`run`, `Documentation/ReplayHostProtocol.md`), cumulatively:
/// each step reduces the state the one before it left.
package struct History: Sendable, Equatable {
  /// One step of the history.
  package enum Entry: Sendable, Equatable {
    /// The trace's step with this index: its action, with the dependency values it read.
    case recorded(Int)
    /// A new action, as JSON, reading `dependencies` in order (then stand-ins), shown as
    /// `label`; its state is compared with the state recorded after step `after` (the step it
    /// replaces, or the one before the step it precedes), or the initial state when `nil`.
    case new(action: JSONValue, label: String, dependencies: [DependencyValue], after: Int?)
  }

  /// What each step's state is compared with.
  package enum Comparison: String, Sendable, Equatable {
    /// The recorded step's change: the state before it, as this history left it, with the
    /// step's recorded patch applied. What `shrink` looks for: the first step whose change
    /// today differs from the recorded one. New actions are not compared.
    case recordedChange
    /// The recorded state after the step (after the step a new action follows, for a new
    /// action): where the history parts from the recording, and how far.
    case recordedState
    /// Nothing: the history runs for its predicate, or its crash.
    case nothing = "none"
  }

  /// The trace whose steps the history names.
  package var trace: String
  package var entries: [Entry]
  package var comparison: Comparison
  /// The recorded steps compared, by trace index; `nil`: every step. `shrink` compares only the
  /// steps that could fail as the session did: removing actions changes what others recorded.
  package var comparedSteps: Set<Int>?
  /// Stop after the first step whose state the predicate holds of.
  package var until: StatePredicate?
  /// Stop at the first step that differs from the recording.
  package var stopsAtFirstDifference: Bool
  /// Where to write the history as a trace, as it runs; `nil`: nowhere.
  package var output: String?

  /// Creates a history of `trace`'s steps and new actions.
  package init(
    trace: String, entries: [Entry], comparison: Comparison, until: StatePredicate? = nil,
    stopsAtFirstDifference: Bool, comparedSteps: Set<Int>? = nil, output: String? = nil
  ) {
    self.comparedSteps = comparedSteps
    self.trace = trace
    self.entries = entries
    self.comparison = comparison
    self.until = until
    self.stopsAtFirstDifference = stopsAtFirstDifference
    self.output = output
  }
}

/// What running a ``History`` found.
package struct HistoryOutcome: Sendable, Equatable, Codable {
  /// A step of the history whose state differs from the recording's.
  package struct Difference: Sendable, Equatable, Codable {
    /// The step's position in the history, from 0.
    package var entry: Int
    /// The recorded step it ran, or the one a new action follows.
    package var step: Int?
    /// Why it differs: `state`, `effects`, `dependencyReads` (with ``History/Comparison``
    /// `recordedChange` only), `changeDoesNotApply` (the recorded patch does not fit the state
    /// the history left), `actionDoesNotDecode`.
    package var reason: String
    /// Where, the first few; see ``count``.
    package var differences: [StateDifference]
    /// How many paths differ in all.
    package var count: Int
    /// How the step's effects differ from the recorded ones, if they do.
    package var effects: EffectsDifference? = nil
    /// How the step's reads of generated values differ from the recorded ones, if they do.
    package var dependencyReads: DependencyReadsDifference? = nil
  }

  /// How many of the history's steps ran.
  package var ran: Int
  /// The steps that differ, in order, the first few.
  package var differing: [Difference]
  /// How many steps differ in all.
  package var differingCount: Int
  /// The step after which ``History/until`` first held, if it did.
  package var reached: Int?
  /// Whether the history was written to ``History/output`` in full.
  package var wrote: Bool

  /// Creates an outcome of nothing run.
  package init() {
    ran = 0
    differing = []
    differingCount = 0
    reached = nil
    wrote = false
  }
}

// MARK: JSON, as the host protocol carries it

extension History {
  /// The `run` request's members other than `kind` and `id`.
  package var json: JSONValue {
    var object: JSONObject = [
      "trace": .string(trace),
      "history": .array(entries.map(\.json)),
      "compare": .string(comparison.rawValue),
      "stopAtFirstDifference": .bool(stopsAtFirstDifference),
    ]
    if let until { object["until"] = .string(until.text) }
    if let comparedSteps {
      // One step as a number, as version 2 first wrote it.
      object["compareOnly"] =
        comparedSteps.count == 1
        ? .integer(Int64(comparedSteps.first!))
        : .array(comparedSteps.sorted().map { .integer(Int64($0)) })
    }
    if let output { object["output"] = .string(output) }
    return .object(object)
  }

  /// Reads a `run` request; the error is one line for the host's `badRequest`.
  package init(json: JSONValue) throws(HistoryRequestError) {
    guard let trace = json["trace"]?.stringValue else {
      throw HistoryRequestError("a run request needs a \"trace\" string")
    }
    guard case let .array(list)? = json["history"] else {
      throw HistoryRequestError("a run request needs a \"history\" array")
    }
    var entries: [Entry] = []
    entries.reserveCapacity(list.count)
    for (position, item) in list.enumerated() {
      entries.append(try Entry(json: item, position: position))
    }
    let comparisonText = json["compare"]?.stringValue ?? Comparison.recordedState.rawValue
    guard let comparison = Comparison(rawValue: comparisonText) else {
      throw HistoryRequestError("unknown \"compare\" \"\(comparisonText)\"")
    }
    var until: StatePredicate?
    if let text = json["until"]?.stringValue {
      do throws(StatePredicate.ParseError) {
        until = try StatePredicate(text)
      } catch {
        throw HistoryRequestError("\"until\": \(error.message)")
      }
    }
    self.init(
      trace: trace, entries: entries, comparison: comparison, until: until,
      stopsAtFirstDifference: json["stopAtFirstDifference"]?.boolValue ?? false,
      comparedSteps: Self.comparedSteps(json["compareOnly"]),
      output: json["output"]?.stringValue
    )
  }
}

extension History {
  /// `compareOnly`: one step, or an array of them.
  private static func comparedSteps(_ json: JSONValue?) -> Set<Int>? {
    guard let json else { return nil }
    if let one = json.int64Value.flatMap({ Int(exactly: $0) }) { return [one] }
    guard let list = json.arrayValue else { return nil }
    return Set(list.compactMap { $0.int64Value.flatMap { Int(exactly: $0) } })
  }
}

extension History.Entry {
  var json: JSONValue {
    switch self {
    case let .recorded(index):
      return ["step": .integer(Int64(index))]
    case let .new(action, label, dependencies, after):
      var object: JSONObject = [
        "action": action, "label": .string(label), "deps": .array(dependencies.map(\.json)),
      ]
      if let after { object["after"] = .integer(Int64(after)) }
      return .object(object)
    }
  }

  init(json: JSONValue, position: Int) throws(HistoryRequestError) {
    if let index = json["step"]?.int64Value {
      guard let step = Int(exactly: index), step >= 0 else {
        throw HistoryRequestError("history[\(position)]: a step index is a natural number")
      }
      self = .recorded(step)
      return
    }
    guard let action = json["action"] else {
      throw HistoryRequestError("history[\(position)] needs a \"step\" or an \"action\"")
    }
    var dependencies: [DependencyValue] = []
    for value in json["deps"]?.arrayValue ?? [] {
      do throws(TraceFormatError) {
        dependencies.append(try DependencyValue(json: value))
      } catch {
        throw HistoryRequestError("history[\(position)].deps: \(error)")
      }
    }
    self = .new(
      action: action, label: json["label"]?.stringValue ?? "(new action)",
      dependencies: dependencies, after: json["after"]?.int64Value.flatMap { Int(exactly: $0) }
    )
  }
}

/// A `run` request the host cannot read: one line, for the `badRequest` error.
package struct HistoryRequestError: Error, CustomStringConvertible {
  package var description: String
  init(_ description: String) { self.description = description }
}
