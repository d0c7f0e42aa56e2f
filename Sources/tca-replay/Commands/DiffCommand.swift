import Recorder
import TraceJSON

/// `tca-replay diff`: how the state changed between two steps.
enum DiffCommand: Command {
  static let name = "diff"
  static let abstract = "How the state changed between any two steps."
  static let overview = """
    Print what differs between the state after step <from> and the state after step
    <to>. Array elements with an "id" are matched by id, so a removal is one change.
    """
  static let positionals = [
    Positional.trace,
    Positional(name: "<from>", help: "Step numbers, 'initial' (before step 0) or 'last'."),
    Positional(name: "<to>", help: ""),
  ]
  static let path = Option<StatePath>.statePath(
    "--path", value: "<path>",
    help: "Compare only the values at this path: a JSON Pointer, or /todos[id=3] to follow "
      + #"the element whose "id" is 3 wherever it is."#)
  static let json = Flag(
    "--json", help: "Print an RFC 6902 JSON Patch from <from> to <to>, as one line.")
  static let options: [any CommandOption] = [path, json]

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let path = arguments[Self.path] ?? .root
    let trace = try context.openTrace(arguments.positionals[0], checked: false)
    let from = try StepReference.resolve(arguments.positionals[1], in: trace)
    let to = try StepReference.resolve(arguments.positionals[2], in: trace)
    // The keyframe runs from the earlier state (the initial one if named) through the later.
    let named = [from, to].compactMap { $0 }
    try trace.checkStates(from: named.count < 2 ? nil : named.min(), through: named.max())
    let oldState = try trace.state(afterStep: from)
    let newState = try trace.state(afterStep: to)
    // nil and absent are the same value; only a path the state's type cannot have is an error.
    let old = try trace.value(at: path, in: oldState) { context.errors.write($0) }
    let new = try trace.value(at: path, in: newState) { _ in }
    let pointer =
      path.pointer(in: newState) ?? path.pointer(in: oldState)
      ?? JSONPointer(tokens: path.components.compactMap {
        if case .token(let token) = $0 { token } else { nil }
      })
    var patch = JSONPatch.diff(from: old, to: new)
    if !pointer.isRoot {
      // Report paths from the whole state's root, as everywhere else.
      patch = JSONPatch(patch.operations.map { $0.prefixed(by: pointer) })
    }
    // A hidden value that changed in place between the two reads the same in both: the steps
    // between them say so.
    let hidden = try redactedChanges(
      in: trace, between: from, and: to, under: pointer, old: oldState, new: newState)
    if !hidden.isEmpty {
      patch = JSONPatch(
        patch.operations
          + hidden.flatMap { path in
            [
              .test(path: path, value: .string("<redacted>")),
              .replace(path: path, value: .string("<redacted>")),
            ]
          })
    }
    if arguments[Self.json] {
      context.output.writeJSON(patch.json.jsonString + "\n")
    } else {
      let heading = "\(describe(from)) → \(describe(to))"
      let lines =
        [context.style.paint(heading, .bold)]
        + ChangeLines.lines(
          StateChange.changes(
            patch, from: oldState, to: newState, type: trace.header.stateType,
            schema: trace.typeSchema()), style: context.style)
      context.output.write(lines.joined(separator: "\n") + "\n")
    }
    return .success
  }

  /// The paths under `pointer`, in the state after `to`, of the hidden values a step between
  /// `from` and `to` (in either order) changed in place, that read `"<redacted>"` there and
  /// that were neither put there nor changed visibly between the two (the diff shows those).
  /// Each is followed through the steps after its change to where it is in `to`'s state: an
  /// element inserted before it moves it. Only for a trace with redaction rules: each step's
  /// patch is read, and applied.
  private static func redactedChanges(
    in trace: TraceIndex, between from: Int?, and to: Int?, under pointer: JSONPointer,
    old: JSONValue, new: JSONValue
  ) throws -> [JSONPointer] {
    guard !trace.header.redactions.isEmpty else { return [] }
    let start = from ?? (trace.firstStep - 1)
    let end = to ?? (trace.firstStep - 1)
    guard start != end else { return [] }
    var walk = HiddenChangeWalk(state: old)
    if start < end {
      for index in (start + 1)...end {
        // Steps the recorder lost: the walk goes on from the state after the last of them.
        if let gap = trace.gaps.first(where: { $0.steps.contains(index) }) {
          if index == gap.steps.upperBound { walk.restart(at: try trace.state(afterStep: index)) }
          continue
        }
        try walk.forwards(through: trace.step(at: index).patch) {
          try trace.state(afterStep: index)
        }
      }
    } else {
      for index in stride(from: start, to: end, by: -1) {
        if let gap = trace.gaps.first(where: { $0.steps.contains(index) }) {
          if index == gap.steps.lowerBound {
            walk.restart(at: try trace.state(afterStep: index == trace.firstStep ? nil : index - 1))
          }
          continue
        }
        try walk.backwards(through: trace.step(at: index).patch) {
          try trace.state(afterStep: index == trace.firstStep ? nil : index - 1)
        }
      }
    }
    let placeholder = JSONValue.string("<redacted>")
    // One put in place or changed visibly between the two is shown by the diff already.
    return walk.changedInPlace.filter { path in
      path.tokens.starts(with: pointer.tokens) && path.resolve(in: new) == placeholder
    }
  }
}
