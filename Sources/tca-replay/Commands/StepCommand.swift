import Recorder
import TraceJSON

#if canImport(Glibc)
  import Glibc
#endif

/// `tca-replay step`: the interactive stepper.
enum StepCommand: Command {
  static let name = "step"
  static let abstract = "Walk a trace: next, back, goto, print, watch, continue, reverse-continue."
  static let overview = """
    Step through a trace forwards and backwards, the way gdb or rr steps through a
    program. The prompt shows the current step and its action. Type 'help' at the prompt for
    the commands.

    When standard input is not a terminal, commands are read one per line and no prompt is
    shown, so a session can be scripted:

      printf 'last\\nwatch /count\\nreverse-continue\\nprint /count\\n' | tca-replay step t.ndjson
    """
  static let positionals = [Positional.trace]
  static let options: [any CommandOption] = [follow] + HostSettings.options(required: false)
  static let discussion = """
    With --host, blame, skip, edit and insert ask today's reducer what it does with the
    recording changed.

    EXIT STATUS:
      0 when every command succeeded; otherwise 64 if a command failed (not understood, or
      asking for a step the trace does not have, or a path its state's type cannot have; a nil
      or absent value prints nil), 65 if part of the trace could not be read, or 125 if the
      replay host failed. A failed command does not end the session.

    COMMANDS:
    \(Stepper.commandHelp)
    """

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let path = arguments.positionals[0]
    let following = arguments[Self.follow]
    guard
      let trace = try following
        ? openFollowed(path, context) : context.openTrace(path, checked: false)
    else {
      return .success
    }
    let whatIf = try HostSettings(given: arguments).map { WhatIf(trace: trace, settings: $0) }
    var stepper = Stepper(
      trace: trace, context: context, isInteractive: isatty(0) == 1, whatIf: whatIf
    )
    if following {
      stepper.following = FollowedRecording(path: path)
    } else {
      // Checked whole, as `summary` checks it: the steps before a problem stay reachable.
      stepper.cursor.problem = CheckedTraceReader.firstProblem(in: path)
    }
    return stepper.run()
  }
}

/// The stepper's state and command loop.
struct Stepper {
  var cursor: TraceIndex.Cursor
  var watches: [StatePath] = []
  /// The recording `--follow` follows, until its end record.
  var following: FollowedRecording?
  let context: CommandContext
  private let isInteractive: Bool
  private var status = ExitStatus.success
  private var lastCommand: String?
  /// With `--host`: skip, edit, insert and save.
  private let whatIf: WhatIf?

  init(trace: TraceIndex, context: CommandContext, isInteractive: Bool, whatIf: WhatIf? = nil) {
    self.whatIf = whatIf
    cursor = TraceIndex.Cursor(trace: trace)
    self.context = context
    self.isInteractive = isInteractive
  }

  var trace: TraceIndex { cursor.trace }
  var style: Style { context.style }

  mutating func run() -> ExitStatus {
    let count = trace.stepCount
    let (first, last) = (trace.stepIndices.lowerBound, trace.stepIndices.upperBound - 1)
    let range =
      count == 0
      ? "no steps" : counted(count, "step") + (count == 1 ? " (\(first))" : " (\(first)…\(last))")
    say(
      "\(trace.path): \(trace.header.reducer.escapingControlCharacters), \(range). "
        + "Type 'help' for commands.")
    if let crash = trace.crash {
      say(style.paint("The session " + crashSentence(crash) + ".", .red))
    }
    sayLocation()
    sayFollowing()
    // On a terminal, lines are edited here: cursor keys, history, Ctrl-A/E/U/K/C/D.
    var terminal = isInteractive ? TerminalLineReader(output: context.output) : nil
    while true {
      catchUpBeforePrompt()
      let input: String?
      if terminal != nil {
        input = terminal!.readLine(prompt: prompt)
      } else {
        if isInteractive { context.output.write(prompt) }
        input = readLine(strippingNewline: true)
      }
      guard let line = input else {
        if isInteractive { context.output.write("\n") }
        break
      }
      var command = line.trimmingWhitespace
      if command.isEmpty {
        guard isInteractive, let last = lastCommand else { continue }
        command = last
      }
      lastCommand = command
      let name = String(command.prefix { !$0.isWhitespace })
      if Self.quit.names.contains(name) {
        // A stray argument ("q now") still quits: that is what was asked.
        break
      }
      execute(command)
    }
    return status
  }

  private var prompt: String {
    let here = cursor.step.map { "step \($0)/\(trace.stepIndices.upperBound - 1)" } ?? "initial"
    var label = (try? cursor.currentStep())?.label.escapingControlCharacters ?? ""
    if label.count > 40 { label = String(label.prefix(39)) + "…" }
    return style.paint("(\(here)\(label.isEmpty ? "" : " " + label))", .bold) + " "
  }

  private mutating func execute(_ line: String) {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    let name = words[0]
    let argument = words.count > 1 ? words[1].trimmingWhitespace : nil
    do {
      try catchUp(before: name)
      guard let command = Self.commands.first(where: { $0.names.contains(name) }) else {
        let unknown = Suggestion.message(
          "unknown command '\(name)'", for: name, in: Self.commands.map(\.name))
        // "…; did you mean 'list'? Type 'help' …", or "…'. Type 'help' …".
        throw UsageError(
          message: unknown + (unknown.hasSuffix("?") ? " " : ". ") + "Type 'help' for the list.")
      }
      try command.perform(&self, argument)
    } catch let error as UsageError {
      complain(error.message, status: .usage)
    } catch let error as HostError {
      complain("\(error)", status: .cannotTest)
    } catch let error as TraceReadError {
      complain("\(error.firstInTrace())", status: .badData)
    } catch {
      complain("\(error)", status: .badData)
    }
  }

  private func count(_ argument: String?, default value: Int = 1) throws(UsageError) -> Int {
    guard let argument else { return value }
    guard let number = Int(argument), number > 0 else {
      throw UsageError(message: "'\(argument)' is not a positive number")
    }
    return number
  }

  private mutating func move(by offset: Int) throws {
    let current = cursor.step.map { $0 - trace.firstStep + 1 } ?? 0
    // `next 9223372036854775807` stops at the last step rather than overflow.
    let (sum, overflow) = current.addingReportingOverflow(offset)
    let target = overflow ? (offset > 0 ? trace.stepCount : 0) : min(max(sum, 0), trace.stepCount)
    if target == current {
      say(offset > 0 ? "Already at the last step." : "Already at the initial state.")
      if offset > 0, let crash = trace.crash {
        say(style.paint("Then the session " + crashSentence(crash) + ".", .red))
      }
      return
    }
    try cursor.move(to: target == 0 ? nil : trace.firstStep + target - 1)
    sayLocation()
  }

  private func printState(_ argument: String?) throws {
    let path = try parseStatePath(argument ?? "")
    let value = try trace.value(at: path, in: cursor.state) { context.errors.write($0) }
    say(
      value == .null
        ? "nil" : trace.swiftValue(value, at: path, in: cursor.state).block(style: style))
  }

  private func printStep(_ lines: (TraceStep) -> [String]) throws {
    guard let step = try cursor.currentStep() else {
      say("At the initial state: no step yet. Use 'next'.")
      return
    }
    say(lines(step).joined(separator: "\n"))
  }

  private func list(_ count: Int) throws {
    guard trace.stepCount > 0 else {
      say("The trace has no steps.")
      return
    }
    let indices = trace.stepIndices
    let center = cursor.step ?? indices.lowerBound
    // No more than the trace has: `list 9223372036854775807` must not overflow.
    let count = min(count, indices.count)
    var start = max(indices.lowerBound, center - count / 2)
    let end = min(indices.upperBound, start + count)
    start = max(indices.lowerBound, end - count)
    var lines: [String] = []
    if cursor.step == nil { lines.append("=>  (initial state)") }
    for index in start..<end {
      let marker = index == cursor.step ? "=> " : "   "
      if let gap = trace.gaps.first(where: { $0.steps.contains(index) }) {
        let text = pad(String(index), toWidth: 6, leading: true) + "  lost: " + gap.reason
        lines.append(marker + style.paint(text.escapingControlCharacters, .dim))
        continue
      }
      lines.append(stepLine(try trace.step(at: index), style: style, marker: marker))
    }
    if end == indices.upperBound, let crash = trace.crash {
      lines.append(crashLine(crash, style: style, marker: "   "))
    }
    say(lines.joined(separator: "\n"))
  }

  private mutating func find(_ argument: String?, forwards: Bool) throws {
    guard let argument else { throw UsageError(message: "find needs a pattern, e.g. find .todo(*") }
    let pattern = LabelPattern(text: argument)
    let indices = trace.stepIndices
    var index =
      cursor.step.map { forwards ? $0 + 1 : $0 - 1 }
      ?? (forwards ? indices.lowerBound : indices.lowerBound - 1)
    while indices.contains(index) {
      if !trace.isLost(index), pattern.matches(try trace.step(at: index).label) {
        try cursor.move(to: index)
        sayLocation()
        return
      }
      index += forwards ? 1 : -1
    }
    say("No \(forwards ? "later" : "earlier") step's action matches '\(argument)'.")
  }

  private mutating func watch(_ argument: String?) throws {
    guard let argument else {
      say(
        watches.isEmpty
          ? "No watches. Use 'watch /path'."
          : "Watching " + watches.map(\.description).joined(separator: ", ") + ".")
      return
    }
    let pointer = try followingIdentity(parseStatePath(argument))
    // Checks the path against the state's type: only a path it cannot have is refused.
    _ = try trace.value(at: pointer, in: cursor.state) { context.errors.write($0) }
    let isNew = !watches.contains(pointer)
    if isNew { watches.append(pointer) }
    let show = showing(pointer)
    let now = pointer.resolve(in: cursor.state)
    // Each value is shown once: a long one costs its length to lay out.
    let shownNow = show(now)
    var note = ""
    // 'reverse-continue' looks before the current step, so say if this step is the change.
    if cursor.canMoveBackward {
      var previous = cursor
      try previous.backward()
      let old = pointer.resolve(in: previous.state)
      if old == now, !cursor.hiddenChanges(under: [pointer]).isEmpty {
        note = "; this step changed it, value redacted"
      } else if old != now {
        let shownOld = show(old)
        note = shownOld == shownNow
          ? "; this step changed something inside it"
          : "; this step changed it from \(shownOld)"
      }
    }
    let name = pointer.isRoot ? "the whole state" : pointer.description
    say("\(isNew ? "Watching" : "Already watching") \(name): now \(shownNow)\(note).")
  }

  /// A positional path through elements that have ids, as the path that follows those elements:
  /// what someone watching `/todos/1/isComplete` means is that todo, wherever it moves; and a
  /// position in a dictionary's flat array of keys and values, as its key.
  private func followingIdentity(_ path: StatePath) -> StatePath {
    guard !path.followsIdentity, let pointer = path.pointer(in: cursor.state) else { return path }
    return trace.typeSchema().path(
      following: pointer, in: cursor.state, root: trace.header.stateType)
  }

  /// How a watch shows the value at `path`: short, in Swift form.
  private func showing(_ path: StatePath) -> (JSONValue?) -> String {
    let style = style
    return { value in
      guard let value, value != .null else { return "nil" }
      return trace.swiftValue(value, at: path).inline(style: style, limit: 40)
    }
  }

  private mutating func unwatch(_ argument: String?) throws {
    guard let argument else {
      let removed = watches.map { $0.isRoot ? "the whole state" : $0.description }
      watches.removeAll()
      say(removed.isEmpty ? "No watches." : "Stopped watching \(removed.joined(separator: ", ")).")
      return
    }
    let pointer = try parseStatePath(argument)
    guard
      let position = watches.firstIndex(of: pointer)
        ?? watches.firstIndex(of: followingIdentity(pointer))
    else {
      throw UsageError(message: "'\(pointer)' is not watched")
    }
    watches.remove(at: position)
    say("Stopped watching \(pointer).")
  }

  private mutating func continueToChange(forwards: Bool) throws {
    guard !watches.isEmpty else {
      throw UsageError(message: "nothing is watched: use 'watch /path' first")
    }
    let found: Bool
    if forwards, following != nil {
      // Waits for the recording; says why when it stops without a change.
      guard try continueFollowing() else { return }
      found = true
    } else {
      found =
        forwards
        ? try cursor.continueForward(untilChanged: watches)
        : try cursor.continueBackward(untilChanged: watches)
    }
    guard found else {
      let paths = watches.map(\.description).joined(separator: " or ")
      say("No \(forwards ? "later" : "earlier") step changes \(paths).")
      return
    }
    // Show each watched value that the step changed: before it → after it.
    var previous = cursor
    try previous.backward()
    let hidden = cursor.hiddenChanges(under: watches)
    for pointer in watches {
      let old = pointer.resolve(in: previous.state)
      let new = pointer.resolve(in: cursor.state)
      guard old != new else {
        sayHiddenChanges(hidden.filter { $0.path == pointer }.map(\.at), under: pointer)
        continue
      }
      let show = showing(pointer)
      let (shownOld, shownNew) = (show(old), show(new))
      // A change deep inside a long value: the previews alone would read the same.
      if let old, let new, shownOld == shownNew {
        say("Watch \(pointer) changed inside:")
        let lines = ChangeLines.lines(
          StateChange.changes(
            JSONPatch.diff(from: old, to: new), from: old, to: new,
            type: trace.valueType(at: pointer), schema: trace.typeSchema()), style: style)
        for line in lines.prefix(8) { say(line) }
        if lines.count > 8 { say("  … \(lines.count - 8) more changes") }
        continue
      }
      say("Watch \(pointer): \(shownOld) → \(shownNew)")
    }
    sayLocation()
  }

  /// Says that the current step changed the hidden values at `changed`, under the watched
  /// `path`, in place: only that is known of them.
  private func sayHiddenChanges(_ changed: [JSONPointer], under path: StatePath) {
    guard !changed.isEmpty else { return }
    if changed.count == 1, changed[0] == path.pointer(in: cursor.state) {
      say("Watch \(path): changed, value redacted")
      return
    }
    say("Watch \(path) changed inside:")
    let changes = changed.map { StateChange(kind: .redacted, path: StatePath($0)) }
    for line in ChangeLines.lines(changes, style: style) { say(line) }
  }

  func sayLocation() {
    if let index = cursor.step, let gap = trace.gaps.first(where: { $0.steps.contains(index) }) {
      say(
        style.paint("steps \(gap.steps.lowerBound)…\(gap.steps.upperBound) lost", .bold)
          + "  the recorder could not write them: \(gap.reason.escapingControlCharacters)")
      return
    }
    guard let index = cursor.step else {
      say(style.paint("initial state", .bold) + ", before step \(trace.firstStep)")
      return
    }
    // A step whose line cannot be read is still named by its number, never as another place.
    guard let step = try? cursor.currentStep() else {
      say(style.paint("step \(index)", .bold) + "/\(trace.stepIndices.upperBound - 1)")
      return
    }
    say(
      style.paint("step \(step.index)", .bold) + "/\(trace.stepIndices.upperBound - 1)  "
        + step.label.escapingControlCharacters
        + style.paint("  (\(originText(step.origin)))", .dim)
    )
    // The step after the last one is the step that crashed.
    if step.index == trace.stepIndices.last, let crash = trace.crash {
      say(style.paint("Then the session " + crashSentence(crash) + ".", .red))
    }
  }

  func say(_ text: String) {
    context.output.write(text + "\n")
  }

  mutating func complain(_ message: String, status: ExitStatus) {
    context.errors.write("Error: \(message.escapingControlCharacters)\n")
    if self.status == .success || status == .badData { self.status = status }
  }
}

extension Stepper {
  /// The stepper's commands, in the order help lists them.
  static let commands: [StepperCommand] = [
    StepperCommand(
      "next", short: "n", arguments: "[n]", help: "Go forward n steps (default 1)."
    ) { try $0.move(by: $0.count($1)) },
    StepperCommand(
      "back", short: "b", aliases: ["rn", "reverse-next"], arguments: "[n]",
      help: "Go back n steps (default 1)."
    ) { try $0.move(by: -$0.count($1)) },
    StepperCommand(
      "goto", short: "g", arguments: "<step>",
      help: "Go to a step: a number, 'initial' or 'last'."
    ) { stepper, argument in
      guard let argument else {
        throw UsageError(message: "goto needs a step: a number, 'initial' or 'last'")
      }
      try stepper.cursor.move(to: StepReference.resolve(argument, in: stepper.trace))
      stepper.sayLocation()
    },
    StepperCommand(
      "first", aliases: ["start"], help: "Go to the initial state, before the first step."
    ) { stepper, _ in
      try stepper.cursor.move(to: nil)
      stepper.sayLocation()
    },
    StepperCommand("last", aliases: ["end"], help: "Go to the last step.") { stepper, _ in
      try stepper.cursor.move(to: stepper.trace.stepIndices.last)
      stepper.sayLocation()
    },
    StepperCommand(
      "print", short: "p", arguments: "[path]",
      help: "Print the state, or the value at a path (/todos/0, /todos[id=3])."
    ) { try $0.printState($1) },
    StepperCommand(
      "action", short: "a",
      help: "Print the current step's action, origin and dependency values."
    ) { stepper, _ in
      let describe = StepDescription(style: stepper.style, trace: stepper.trace)
      try stepper.printStep {
        describe.heading($0) + describe.action($0) + describe.dependencies($0)
          + describe.cancellation($0)
      }
    },
    StepperCommand("diff", short: "d", help: "Print what the current step changed.") {
      stepper, _ in
      let describe = StepDescription(style: stepper.style, trace: stepper.trace)
      try stepper.printStep {
        describe.heading($0)
          + ChangeLines.lines(stepper.trace.changes(of: $0), style: stepper.style)
      }
    },
    StepperCommand(
      "list", short: "l", arguments: "[n]",
      help: "List the n steps (default 10) around the current one."
    ) { try $0.list($0.count($1, default: 10)) },
    StepperCommand(
      "find", short: "f", arguments: "<pattern>",
      help: "Go to the next step whose action matches (substring or glob)."
    ) { try $0.find($1, forwards: true) },
    StepperCommand(
      "rfind", short: "rf", arguments: "<pattern>",
      help: "Go to the previous step whose action matches."
    ) { try $0.find($1, forwards: false) },
    StepperCommand(
      "watch", short: "w", arguments: "[path]",
      help: "Watch a state path; with no path, list the watches. An element with an \"id\" is "
        + "followed by id: /todos/1 becomes /todos[id=…]."
    ) { try $0.watch($1) },
    StepperCommand(
      "unwatch", arguments: "[path]", help: "Stop watching a path, or every path."
    ) { try $0.unwatch($1) },
    StepperCommand(
      "continue", short: "c",
      help: "Go forward to the next step that changes a watched path."
    ) { stepper, _ in try stepper.continueToChange(forwards: true) },
    StepperCommand(
      "reverse-continue", short: "rc",
      help: "Go back to the previous step that changed a watched path."
    ) { stepper, _ in try stepper.continueToChange(forwards: false) },
    StepperCommand(
      "skip", arguments: "<step>",
      help: "With --host: replay the recording without a step (and what its effects sent) "
        + "through today's reducer, and show where it parts."
    ) { try $0.askWhatIf("skip", $1) },
    StepperCommand(
      "edit", arguments: "<step> <action>",
      help: "With --host: the same, with the step's action replaced. An action is a case, "
        + ".watered(zone: 1, liters: 13), or JSON; any form log, show and action print reads "
        + "back: .pin(id: 0000…0001), UUID(3), .binding(.set(\\.$draft, \"X\")), .seconds(1.5), "
        + "ISO 8601 dates."
    ) { try $0.askWhatIf("edit", $1) },
    StepperCommand(
      "insert", arguments: "<step> <action>",
      help: "With --host: the same, with an action sent before the step."
    ) { try $0.askWhatIf("insert", $1) },
    StepperCommand(
      "save", arguments: "<file>",
      help: "Write the last skip, edit or insert's history as a trace."
    ) { try $0.askWhatIf("save", $1) },
    StepperCommand(
      "blame", arguments: "[path]",
      help: "With --host: which reducer, at which line, wrote each path the current step "
        + "changed (or those at or under path)."
    ) { try $0.blame($1) },
    StepperCommand("help", short: "h", aliases: ["?"], help: "Show this list.") { stepper, _ in
      stepper.say("Commands:\n" + Stepper.commandHelp)
    },
    quit,
  ]

  /// Leaves; the loop ends on it before looking further.
  static let quit = StepperCommand(
    "quit", short: "q", aliases: ["exit"], help: "Leave (so does end of input)."
  ) { _, _ in }

  /// The commands' help, then the line editor's keys.
  static let commandHelp =
    StepperCommand.help(commands) + """

    On a terminal, an empty line repeats the last command, Up and Down recall earlier ones,
    and Left, Right, Home, End, Ctrl-U and Ctrl-K edit the line; Ctrl-C drops it.
    """

  /// A what-if, which needs a replay host.
  private func askWhatIf(_ name: String, _ argument: String?) throws {
    guard let whatIf else {
      throw UsageError(message: "\(name) needs a replay host: start the stepper with --host")
    }
    say(try whatIf.perform(name, argument, style: style))
  }

  private func blame(_ argument: String?) throws {
    guard let whatIf else {
      throw UsageError(message: "blame needs a replay host: start the stepper with --host")
    }
    guard let step = cursor.step else {
      throw UsageError(message: "At the initial state: no step to blame. Use 'next'.")
    }
    say(try whatIf.blame(step: step, path: argument))
  }
}

extension String {
  var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
