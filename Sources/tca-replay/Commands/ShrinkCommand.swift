#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Recorder
import TraceJSON

/// `tca-replay shrink`: the fewest sent actions of a session that still fail the same way.
enum ShrinkCommand: Command {
  static let name = "shrink"
  static let abstract = "The fewest sent actions of a session that still fail the same way."
  static let overview = """
    Replay a session through today's reducer in a replay host, from its initial state, to
    learn how it fails: the reducer crashes, a step differs from the recording (its state,
    its effects or its dependency reads), or --until's condition comes true. Then remove sent
    actions, each with every action its effects sent, by delta debugging (ddmin), replaying
    each candidate in the host, until removing any one more makes the failure go away, and
    check that at the end. Write what is left as a trace, which 'tca-replay gen-test' turns
    into a short test.
    """
  static let positionals = [Positional.trace]
  static let until = Option<StatePredicate>(
    "--until", value: "<condition>",
    help: "Shrink to reach this state instead: '/cart/0/quantity > 3', '/coupon != nil', "
      + "'/alert' (present, not nil or false). Operators: == != < <= > >=; values are JSON "
      + "or as the tool prints them: .seconds(1.5), 2026-11-22T01:33:20Z, UUID(3), 3F25…3301."
  ) { text, name throws(UsageError) in
    do throws(StatePredicate.ParseError) {
      return try StatePredicate(text)
    } catch {
      throw UsageError(message: "'\(name)': \(error.message)")
    }
  }
  static let output = Option<String>(
    "-o", "--output", value: "<file>",
    help: "Where to write the shrunk session (default: the trace's name with .shrunk.ndjson).")
  static let options: [any CommandOption] = HostSettings.options(required: true) + [until, output]
  static let discussion = """
    The same failure means the same kind at an equivalent place: a crash whose reason has
    the same first line (the Swift runtime's 'File.swift:12: Fatal error: …', or the signal
    when the host's log has none); or a step of the same action case as the one that
    diverged ('.harvested', whatever its payload) differing first in the same way: its state
    at the same path, array positions aside; its effects in the same respect (started,
    cancels, cancellable by); or its reads of uuid, date, random numbers or stack element
    ids of the same kinds; or --until's condition. Steps of other cases are not compared,
    and the values a compared step replaces must hold what they held when recorded, except
    numbers, whose change is compared instead (7 → 10 recorded is +3). Each step reads the
    dependency values (uuid, date, random) it read when recorded. A trace that ends in a
    crash keeps its crashing action, last, and the action whose effect sent it, if one did.

    The shrunk trace holds today's states, except that a divergent step holds the recorded
    change, so that a test made from it expects what the recording did; it keeps the steps'
    effects, their ends and keyframes, and a crash ends it in a crash record naming what
    sent the crashing action.

    EXIT CODES:
      0 shrunk and written; 1 the session does not fail, nothing to shrink; 64 bad
      arguments; 65 malformed trace; 66 missing trace; 73 the output cannot be written;
      125 the host failed.
    """

  static func run(_ parsed: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let path = parsed.positionals[0]
    let errors = context.errors
    let settings = HostSettings(required: parsed)
    let outputPath = parsed[output] ?? defaultOutput(for: path)
    if sameFile(outputPath, path) {
      throw UsageError(message: "'--output' is the trace itself: shrinking would overwrite it")
    }
    // Opening checks the trace, and warns of a last line cut short, as every command does.
    _ = try context.openTrace(path)
    let shrinker: Shrinker
    do throws(TraceReadError) {
      shrinker = try Shrinker(trace: path, settings: settings, predicate: parsed[until])
    } catch {
      errors.write("Error: \(error)\n")
      return error.kind == .missing ? .missingInput : .badData
    }
    if let predicate = parsed[until] { try check(predicate, against: path) }
    // Written beside the output and renamed over it once whole: a failed shrink leaves no
    // half-written trace, and a folder that cannot take it is found before the shrinking.
    let partial = outputPath + ".partial"
    let probe = PrivateFile.open(partial)
    guard probe >= 0 else {
      errors.write("Error: \(outputPath): cannot write (\(String(cString: strerror(errno))))\n")
      return .cannotCreate
    }
    close(probe)
    defer { unlink(partial) }
    // Every crashing candidate ends a host; its backtrace would take longer than its replay.
    // The reason's first line, which is what is compared, comes before it. A user's setting wins.
    setenv("SWIFT_BACKTRACE", "enable=no", 0)
    let started = ContinuousClock.now
    let showsProgress = isatty(2) == 1
    do throws(ShrinkError) {
      guard let failure = try shrinker.failureOfWholeSession() else {
        errors.write(
          "\(path): the session does not fail: its \(counted(shrinker.units.stepCount, "step"))"
            + verb(shrinker.units.stepCount, " replays ", " replay ")
            + (parsed[until] == nil
              ? "without a crash or a divergence" : "without \(parsed[until]!.text) coming true")
            + "; nothing to shrink\n")
        return .diverges
      }
      context.output.write(
        "\(path): \(failure)\nshrinking \(counted(shrinker.units.stepCount, "step")) "
          + "(\(counted(shrinker.units.sent.count, "sent action")))\n")
      let candidates = shrinker.units.candidates.count
      shrinker.progress = { size in
        guard showsProgress else { return }
        errors.writeRaw("\r\u{1B}[Kreplay \(shrinker.replays): trying \(size) of \(candidates) sent actions")
      }
      let kept = try shrinker.shrink(failure)
      if showsProgress { errors.writeRaw("\r\u{1B}[K") }
      // Written by one more run, which must fail as every kept candidate did: a host that
      // does not replay the same way twice makes the shrunk session worthless.
      let written = try shrinker.write(kept, failing: failure, to: partial)
      guard failure.isShown(by: written) else {
        errors.write(
          "Error: \(outputPath): the host did not fail the same way when writing the shrunk "
            + "session; does it replay the same way every time?\n")
        return .cannotTest
      }
      guard rename(partial, outputPath) == 0 else { throw ShrinkError.cannotWrite(outputPath) }
      let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18
        + Double((ContinuousClock.now - started).components.seconds)
      let entries = shrinker.units.entries(kept)
      let sentKept = entries.filter {
        if case let .recorded(step) = $0 { return shrinker.units.sent.contains(step) }
        return false
      }
      context.output.write(
        "shrunk to \(counted(entries.count, "step")), \(counted(sentKept.count, "sent action")), "
            + "in \(counted(shrinker.replays, "replay")) (\(String(format: "%.1f", seconds)) s; "
          + "\(shrinker.checkReplays) to check it is 1-minimal):\n")
      // The shrunk session as its trace numbers it, each step with where it was recorded.
      var failing = shrinker.units.crashStep
      if case let .outcome(outcome) = written { failing = outcome.differing.first?.step }
      for (position, entry) in entries.enumerated() {
        guard case let .recorded(step) = entry else { continue }
        let label = shrinker.units.labels[step] ?? ""
        let role = step == failing ? "  ← fails here" : ""
        context.output.write("  \(pad(String(position), toWidth: 4))\(label)  (step \(step))\(role)\n")
      }
      context.output.write("wrote \(outputPath); make it a test with:\n")
      context.output.write("  tca-replay gen-test \(outputPath)\n")
      return .success
    } catch {
      if showsProgress { errors.writeRaw("\r\u{1B}[K") }
      switch error {
      case let .host(problem):
        errors.write("Error: \(problem)\n")
        return .cannotTest
      case let .refused(problem, message):
        errors.write("Error: \(message)\n")
        return ExitStatus(refusal: problem)
      case let .cannotWrite(file):
        errors.write("Error: \(file): cannot write the shrunk trace\n")
        return .cannotCreate
      }
    }
  }

  /// Whether two paths name one file, through symbolic links and `..`.
  static func sameFile(_ a: String, _ b: String) -> Bool {
    URL(fileURLWithPath: a).resolvingSymlinksInPath().path
      == URL(fileURLWithPath: b).resolvingSymlinksInPath().path
  }

  /// Refuses a condition that cannot tell: one whose path the trace's state type cannot have,
  /// or one that already holds before the first action.
  private static func check(_ predicate: StatePredicate, against path: String) throws {
    let trace = try TraceIndex(path: path)
    let initial = trace.header.initialState
    if case let .impossible(why) = trace.lookUp(predicate.path, in: initial) {
      throw UsageError(message: "'--until': \(why)")
    }
    if predicate.holds(in: initial) {
      throw UsageError(
        message: "'--until': \(predicate.text) holds in the initial state already: no action "
          + "makes it true")
    }
  }

  /// `session.ndjson` → `session.shrunk.ndjson`.
  static func defaultOutput(for path: String) -> String {
    let base = path.hasSuffix(".ndjson") ? String(path.dropLast(".ndjson".count)) : path
    return base + ".shrunk.ndjson"
  }
}
