import Recorder

#if canImport(Glibc)
  import Glibc
#endif

extension StepCommand {
  static let follow = Flag(
    "-f", "--follow",
    help: "Keep the stepper open on a trace still being recorded: new steps become reachable "
      + "as they are written, across rotated files; 'last' goes to the newest, and 'continue' "
      + "waits for a step that changes a watched path (Ctrl-C stops waiting). Waits for a "
      + "trace that does not exist yet.")

  /// The trace `--follow` starts on: waited for when it does not exist yet, then its kept set,
  /// oldest segment first, as `step` reads it. `nil` when Ctrl-C ended the wait.
  static func openFollowed(_ path: String, _ context: CommandContext) throws(TraceReadError)
    -> TraceIndex?
  {
    FollowInterrupt.install()
    defer { FollowInterrupt.restore() }
    var waited = false
    var tornListings = 0
    while !FollowInterrupt.wasRaised {
      do {
        return try TraceIndex(path: path)
      } catch where error.kind == .malformed && hasWholeLine(path) && tornListings < 20 {
        // A set listed while it rotates can be torn (a name taken by the next file between
        // the listing and the open): listed again.
        tornListings += 1
        usleep(LogCommand.followPollMicroseconds)
        continue
      } catch where error.kind == .malformed && hasWholeLine(path) {
        // Still refused: the oldest kept segment alone, walked on segment by segment.
        return try TraceIndex(segmentAt: TraceIndex.oldestSegment(of: path) ?? path)
      } catch {
        // Missing, or created but without its whole header yet: both are a trace to come.
        guard error.kind == .missing || !hasWholeLine(path) else { throw error }
      }
      if !waited {
        context.errors.write("waiting for \(path.escapingControlCharacters) to appear\n")
        waited = true
      }
      usleep(LogCommand.followPollMicroseconds)
    }
    return nil
  }

  /// Whether the file at `path` holds a newline: its header line is whole.
  private static func hasWholeLine(_ path: String) -> Bool {
    guard let file = fopen(path, "r") else { return false }
    defer { fclose(file) }
    while true {
      let byte = fgetc(file)
      if byte == EOF { return false }
      if byte == 0x0A { return true }
    }
  }
}

/// A recording the stepper follows (`step --follow`): the trace it was given, whose newest
/// segment the stepper moves into when it walks past the end of the one it is on.
struct FollowedRecording {
  /// The trace's path, as given: the name of its newest segment.
  let path: String
}

extension Stepper {
  /// Before the prompt: index what was recorded since, so the prompt counts the new steps.
  mutating func catchUpBeforePrompt() {
    do {
      try catchUp(before: nil)
    } catch let error as TraceReadError {
      complain("\(error.firstInTrace())", status: .badData)
    } catch {
      complain("\(error)", status: .badData)
    }
  }

  /// Indexes what the recorder wrote since the last look. Before a command that moves forward
  /// (`next`, `last`, `continue`, …) at the end of a rotated segment, moves into the segment
  /// that continues it. Says when the recording ends, and stops following then.
  mutating func catchUp(before command: String?) throws {
    guard let following else { return }
    let grown = try trace.appended()
    if grown !== trace { cursor.adopt(grown) }
    let forwards: Set<String> = ["n", "next", "last", "end", "c", "continue", "g", "goto"]
    if let command, forwards.contains(command) {
      // `last` goes to the newest segment; the others step into the next one only from the end.
      var entered: TraceIndex?
      while command == "last" || command == "end" || isAtSegmentEnd,
        let next = try trace.nextSegment(base: following.path)
      {
        try enter(next)
        entered = next
      }
      if let entered {
        say(
          style.paint(
            "The recording went on in \(entered.path.escapingControlCharacters) from step "
              + "\(entered.firstStep)"
              + (entered === trace ? "; earlier steps are in older segments." : "."), .dim))
      }
    }
    if trace.isFinished, !trace.hasNewerSegment(base: following.path) {
      self.following = nil
      let end = trace.stepIndices.isEmpty ? "" : " at step \(trace.stepIndices.upperBound - 1)"
      let how =
        trace.crash.map { "the session " + crashSentence($0) }
        ?? "the recorder closed the trace\(end)"
      say(style.paint("The recording ended: \(how). No longer following.", .bold))
    }
  }

  /// Whether the cursor is at the last step indexed, or at the start of a segment without any.
  private var isAtSegmentEnd: Bool {
    cursor.step == trace.stepIndices.last
  }

  /// Indexes the segment that continues the trace after it, so the steps before stay
  /// reachable; or, when steps between them were rotated away, moves into it alone, at its
  /// initial state.
  private mutating func enter(_ segment: TraceIndex) throws(TraceReadError) {
    if let continued = try trace.continued(by: segment) {
      cursor.adopt(continued)
      return
    }
    let expected = trace.stepIndices.upperBound
    if segment.firstStep > expected {
      context.errors.write(
        "note: steps \(expected)…\(segment.firstStep - 1) were rotated away before they could "
          + "be read\n")
    }
    let keep = cursor.step.map { segment.stepIndices.contains($0) } ?? false
    if keep {
      cursor.adopt(segment)
    } else {
      cursor = TraceIndex.Cursor(trace: segment)
    }
  }

  /// Says that the stepper follows the recording, when it does.
  func sayFollowing() {
    guard following != nil else { return }
    say(
      "Following the recording: 'last' and 'continue' move with it; Ctrl-C stops a waiting "
        + "'continue'.")
  }

  /// `continue` on a recording in progress: goes forward to the next step that changes a
  /// watched path, waiting for the recorder to write it. Ctrl-C stops the wait, and so does
  /// the end of the recording; both leave the cursor at the last step read, and say so.
  /// Returns whether a step changed a watched path.
  mutating func continueFollowing() throws -> Bool {
    FollowInterrupt.install()
    defer { FollowInterrupt.restore() }
    var saidWaiting = false
    let paths = watches.map(\.description).joined(separator: " or ")
    while true {
      if try cursor.continueForward(untilChanged: watches) { return true }
      // Nothing up to the end changed them: wait there, so each step is compared once.
      if let last = trace.stepIndices.last, cursor.step != last { try cursor.move(to: last) }
      if following == nil {
        say("No later step changes \(paths): the recording has ended.")
        sayLocation()
        return false
      }
      if FollowInterrupt.wasRaised {
        say("Stopped waiting: no step so far changes \(paths).")
        sayLocation()
        return false
      }
      // What was recorded meanwhile is looked at before saying that it waits.
      let before = ObjectIdentifier(trace)
      try catchUp(before: "continue")
      if following == nil || ObjectIdentifier(trace) != before { continue }
      if !saidWaiting {
        let here = cursor.step.map { "step \($0)" } ?? "the initial state"
        say("No step up to \(here) changes \(paths); waiting for the recording (Ctrl-C stops).")
        saidWaiting = true
      }
      usleep(LogCommand.followPollMicroseconds)
    }
  }
}
