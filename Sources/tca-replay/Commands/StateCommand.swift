import Recorder
import TraceJSON

/// `tca-replay state`: the whole state, or one value in it, after a step.
enum StateCommand: Command {
  static let name = "state"
  static let abstract = "The state after a step, whole or at a path."
  static let overview = """
    Print the state after a step, rebuilt from the nearest keyframe. Long
    collections are cut short; use --path to look inside one, or --json for everything.
    """
  static let positionals = [Positional.trace, Positional.step]
  static let path = Option<StatePath>.statePath(
    "--path", value: "<path>",
    help: "Only the value at this path: a JSON Pointer such as /todos/0/title, or "
      + #"/todos[id=3]/title for the element whose "id" is 3."#)
  static let json = Flag("--json", help: "Print the value as one line of JSON, whole.")
  static let options: [any CommandOption] = [path, json]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let path = arguments[Self.path] ?? .root
    let trace = try context.openTrace(arguments.positionals[0], checked: false)
    let step = try StepReference.resolve(arguments.positionals[1], in: trace)
    try trace.checkStates(from: step, through: step)
    let state = try trace.state(afterStep: step)
    // A nil or absent member is a value, nil; only a path the type cannot have is an error.
    let value = try trace.value(at: path, in: state) { context.errors.write($0) }
    if arguments[Self.json] {
      context.output.writeJSON(value.jsonString + "\n")
    } else if value == .null {
      context.output.write("nil\n")
    } else {
      let value = trace.swiftValue(value, at: path, in: state)
      context.output.write(value.block(style: context.style) + "\n")
    }
    return .success
  }
}

/// `step 4`, or `the initial state`.
func describe(_ step: Int?) -> String {
  step.map { "step \($0)" } ?? "the initial state"
}
