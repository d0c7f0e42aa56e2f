extension TraceRecorder {
  /// When a recorded step reaches the kernel.
  ///
  /// Either way a trap, a bad access or an abort in the app leaves every step handed over
  /// and a `crash` record (see ``Options/recordsCrashes``); the modes differ for deaths no
  /// handler sees (`SIGKILL`, the machine stopping) and in what they cost the app's thread.
  public enum Durability: Sendable, Equatable {
    /// Steps are written in batches by the recorder's thread, usually within a millisecond;
    /// the app's thread never waits for a write. The default.
    case batched
    /// Each step is written (`write(2)` done) before the reducer returns: when `send`
    /// returns, the step is in the kernel and survives any death of the process, `SIGKILL`
    /// included (not a power cut: nothing is synced). The app's thread waits for the
    /// recorder's thread on every action, several times the cost of `.batched`: for crash
    /// hunting, not for shipping.
    case everyStep
  }
}
