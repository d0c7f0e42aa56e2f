import Recorder

/// `tca-replay diff`: how the state changed between two steps.
enum DiffCommand: Command {
  static let name = "diff"
  static let abstract = "How the state changed between any two steps."
  static let usage = "USAGE: tca-replay diff <trace> <from> <to> [--path <pointer>] [--json]"
  static let help = """
    OVERVIEW: Print what differs between the state after step <from> and the state after step
    <to>. Array elements with an "id" are matched by id, so a removal is one change.

    \(usage)

    ARGUMENTS:
      <trace>             A trace file, as written by Reducer.recording(to:).
      <from>, <to>        Step numbers, 'initial' (before step 0) or 'last'.

    OPTIONS:
      --path <pointer>    Compare only the values at this JSON Pointer.
      --json              Print an RFC 6902 JSON Patch from <from> to <to>, as one line.
    """
  static let options: [OptionSpec] = [.value("--path"), .flag("--json")]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    try arguments.requirePositionals(["<trace>", "<from>", "<to>"])
    let pointer = try parsePointer(arguments.value("--path") ?? "")
    let trace = try context.openTrace(arguments.positionals[0])
    let from = try StepReference.resolve(arguments.positionals[1], in: trace)
    let to = try StepReference.resolve(arguments.positionals[2], in: trace)
    let old = pointer.resolve(in: try trace.state(afterStep: from))
    let new = pointer.resolve(in: try trace.state(afterStep: to))
    guard old != nil || new != nil else {
      throw UsageError(message: "neither state has anything at '\(pointer)'")
    }
    var patch = JSONPatch.diff(from: old ?? .null, to: new ?? .null)
    if !pointer.isRoot {
      // Report paths from the whole state's root, as everywhere else.
      patch = JSONPatch(patch.operations.map { $0.prefixed(by: pointer) })
    }
    if arguments.has("--json") {
      context.output.writeJSON(patch.json.jsonString + "\n")
    } else {
      let heading = "\(describe(from)) → \(describe(to))"
      let lines =
        [context.style.paint(heading, .bold)] + PatchRenderer(style: context.style).lines(patch)
      context.output.write(lines.joined(separator: "\n") + "\n")
    }
    return .success
  }
}
