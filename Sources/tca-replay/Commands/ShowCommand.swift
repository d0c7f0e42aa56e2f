import Recorder

/// `tca-replay show`: one step's action, origin, dependency values and change.
enum ShowCommand: Command {
  static let name = "show"
  static let abstract = "One step: its action, origin, dependency values and diff."
  static let overview = """
    Print one step: when it happened, where its action came from, the action, the
    values the reducer read from dependencies, the cancellation ids its effect cancels and
    can be cancelled by, and what it changed in the state.
    """
  static let positionals = [
    Positional.trace, Positional(name: "<step>", help: "A step number or 'last'."),
  ]
  static let json = Flag(
    "--json", help: "Print the step's record from the trace, as one line of JSON.")
  static let options: [any CommandOption] = [json]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let trace = try context.openTrace(arguments.positionals[0], checked: false)
    guard let index = try StepReference.resolve(arguments.positionals[1], in: trace) else {
      throw UsageError(message: "the initial state has no action; name a step")
    }
    try trace.checkStates(from: index, through: index)
    let step = try trace.step(at: index)
    if arguments[Self.json] {
      context.output.writeJSON(TraceRecord.step(step).json.jsonString + "\n")
    } else {
      context.output.write(
        StepDescription(style: context.style, trace: trace).lines(step)
          .joined(separator: "\n") + "\n")
    }
    return .success
  }
}

/// The text `show` and the stepper's `action` and `diff` print.
struct StepDescription {
  var style: Style
  /// The trace the step is from: its types and states show values in Swift form.
  var trace: TraceIndex

  func lines(_ step: TraceStep) -> [String] {
    heading(step) + action(step) + dependencies(step) + cancellation(step)
      + [style.paint("diff", .bold)]
      + ChangeLines.lines(trace.changes(of: step), style: style)
  }

  func heading(_ step: TraceStep) -> [String] {
    [
      style.paint("step \(step.index)", .bold) + "  " + step.label.escapingControlCharacters,
      "  at \(formatSeconds(step.time)), origin \(originText(step.origin))" + effects(step),
    ]
  }

  /// The effects the step started, as the trace numbers them: `, started effects 4, 5`.
  private func effects(_ step: TraceStep) -> String {
    guard !step.effects.isEmpty else { return "" }
    let numbers = step.effects.map(String.init).joined(separator: ", ")
    return ", started \(noun(step.effects.count, "effect")) \(numbers)"
  }

  func action(_ step: TraceStep) -> [String] {
    guard let action = step.action else {
      return [
        style.paint("action", .bold)
          + "  not encoded: the action is not Codable, so this step cannot be replayed"
      ]
    }
    // Whole and with UUIDs as short as the states around it allow: `edit` reads it back.
    let value = SwiftValue(action, type: trace.header.actionType, schema: trace.typeSchema()) {
      let previous = step.index > trace.firstStep ? step.index - 1 : nil
      return SwiftValue.uuids(
        in: [try? trace.state(afterStep: previous), try? trace.state(afterStep: step.index)]
          .compactMap { $0 })
    }
    return [
      style.paint("action", .bold) + "  "
        + value.inlineWhole(limit: 200) { style.paint($0, $1) }
    ]
  }

  func dependencies(_ step: TraceStep) -> [String] {
    guard !step.dependencies.isEmpty else { return [] }
    // Settings and client names are the app's text: shown with control characters escaped.
    let values = step.dependencies.map {
      StateValueText.untyped.dependency($0).escapingControlCharacters
    }
    return [style.paint("read", .bold) + "    " + values.joined(separator: ", ")]
  }

  /// The cancellation ids the step's effect cancels and marks its runs with, one a line.
  func cancellation(_ step: TraceStep) -> [String] {
    func section(_ title: String, _ ids: [String]) -> [String] {
      guard !ids.isEmpty else { return [] }
      return [style.paint(title, .bold)] + ids.map { "  " + $0.escapingControlCharacters }
    }
    return section("cancels", step.cancels) + section("cancellable by", step.cancellable)
  }
}
