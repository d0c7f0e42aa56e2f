import Recorder

/// `tca-replay state`: the whole state, or one value in it, after a step.
enum StateCommand: Command {
  static let name = "state"
  static let abstract = "The state after a step, whole or at a path."
  static let usage = "USAGE: tca-replay state <trace> <step> [--path <path>] [--json]"
  static let help = """
    OVERVIEW: Print the state after a step, rebuilt from the nearest keyframe. Long
    collections are cut short; use --path to look inside one, or --json for everything.

    \(usage)

    ARGUMENTS:
      <trace>             A trace file, as written by Reducer.recording(to:).
      <step>              A step number, 'initial' (before step 0) or 'last'.

    OPTIONS:
      --path <path>       Only the value at this path: a JSON Pointer such as /todos/0/title,
                          or /todos[id=3]/title for the element whose "id" is 3.
      --json              Print the value as one line of JSON, whole.
    """
  static let options: [OptionSpec] = [.value("--path"), .flag("--json")]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    try arguments.requirePositionals(["<trace>", "<step>"])
    let path = try parseStatePath(arguments.value("--path") ?? "")
    let trace = try context.openTrace(arguments.positionals[0])
    let step = try StepReference.resolve(arguments.positionals[1], in: trace)
    let state = try trace.state(afterStep: step)
    guard let value = path.resolve(in: state) else {
      throw UsageError(message: "the state after \(describe(step)) has nothing at '\(path)'")
    }
    if arguments.has("--json") {
      context.output.writeJSON(value.jsonString + "\n")
    } else {
      let renderer = JSONRenderer(style: context.style)
      context.output.write(renderer.block(value) + "\n")
    }
    return .success
  }
}

/// `step 4`, or `the initial state`.
func describe(_ step: Int?) -> String {
  step.map { "step \($0)" } ?? "the initial state"
}
