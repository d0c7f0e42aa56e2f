import Architecture
import TraceJSON

extension StepEngine {
  /// Sends the action of the step a trace's crash record names again, from `before`, the state
  /// recorded after the last step: a reducer that still crashes there ends the process (a replay
  /// host's crash handler names the step first); one that returns no longer crashes.
  ///
  /// Nothing is compared: the step never finished, so the trace has no state after it, and no
  /// dependency values it read (the reducer gets stand-ins).
  func runCrashed(_ crash: TraceCrash, before: JSONValue) -> RecordedCrash? {
    guard let index = crash.step else { return nil }
    var result = RecordedCrash(
      step: index, label: crash.label ?? "(step \(index))", signal: crash.signal,
      outcome: .notReplayed)
    guard let actionJSON = crash.action, actionJSON != .null else {
      result.reason = "its action was not recorded"
      return result
    }
    let action: Base.Action
    let state: Base.State
    do {
      action = try JSONValueDecoder.replaying.decode(Base.Action.self, from: actionJSON)
    } catch {
      let failure = DecodingFailure(error, in: actionJSON)
      result.reason =
        failure.isRedacted(in: actionJSON)
        ? "its action holds redacted values"
        : "its action no longer decodes at \(failure.path): \(failure.message)"
      return result
    }
    do {
      state = try JSONValueDecoder.replaying.decode(Base.State.self, from: before)
    } catch {
      let failure = DecodingFailure(error, in: before)
      result.reason =
        failure.isRedacted(in: before)
        ? "the state before it holds redacted values"
        : "the state before it no longer decodes at \(failure.path): \(failure.message)"
      return result
    }
    var reduced = state
    feed.load([])
    // A replay host that crashes from here on names this step (CrashSite).
    CrashSite.reducing(index)
    _ = withIssueCapture { _ = reducer.reduce(into: &reduced, action: action) }
    CrashSite.reducing(-1)
    result.outcome = .noLongerCrashes
    return result
  }
}
