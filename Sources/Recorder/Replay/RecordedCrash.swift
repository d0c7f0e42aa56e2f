/// The crash a trace ends in, and what replaying its step through today's reducer found.
///
/// A trace whose app crashed while reducing step N ends in a `crash` record naming that step
/// and its action, which never finished. A replay sends that action again, from the state
/// recorded after step N − 1: a reducer that still crashes there ends the replay host, which
/// `tca-replay` reports as a divergence at step N; one that returns no longer crashes.
package struct RecordedCrash: Sendable, Equatable, Codable {
  /// What replaying the crashing step found.
  package enum Outcome: String, Sendable, Equatable, Codable {
    /// The reducer crashed at the step again; the report's divergence at it says how.
    case crashes
    /// The reducer reduced the step and returned.
    case noLongerCrashes
    /// The step could not be sent again; ``RecordedCrash/reason`` says why.
    case notReplayed
  }

  /// The step that crashed when recorded.
  package var step: Int
  /// The label of its action, as recorded.
  package var label: String
  /// The signal it crashed with when recorded, such as `SIGILL`; `nil` when unknown.
  package var signal: String?
  /// What replaying it found.
  package var outcome: Outcome
  /// Why it was not replayed, for ``Outcome/notReplayed``.
  package var reason: String?

  /// Describes the crash at `step`, and what replaying it found.
  package init(
    step: Int, label: String, signal: String?, outcome: Outcome, reason: String? = nil
  ) {
    self.step = step
    self.label = label
    self.signal = signal
    self.outcome = outcome
    self.reason = reason
  }

  /// `step 6 (.faulted("trap")), which crashed the recording (SIGILL), no longer crashes`.
  package var sentence: String {
    let recorded = "step \(step) (\(label)), which crashed the recording"
      + (signal.map { " (\($0))" } ?? "")
    switch outcome {
    case .crashes: return recorded + ", still crashes the reducer"
    case .noLongerCrashes: return recorded + ", no longer crashes"
    case .notReplayed: return recorded + ", was not replayed: " + (reason ?? "unknown reason")
    }
  }
}
