#if canImport(Glibc)
  import Glibc
#endif
import Recorder

/// A replay host that died while reducing a step: the reducer crashed there.
///
/// The host's crash handler names the step and the signal before the process dies
/// (`Documentation/ReplayHostProtocol.md`, `crash`); the reason is read back from the host's
/// log, where the Swift runtime wrote it.
struct HostCrash: Equatable {
  /// The step the crashing thread was reducing.
  var step: Int
  /// The signal that ended the host: SIGILL or SIGTRAP for a Swift runtime trap.
  var signal: Int32
  /// The first lines of the reason, such as `Feature.swift:12: Fatal error: Unexpectedly found
  /// nil while unwrapping an Optional value`; empty when the host's log did not say.
  var reason: [String]
  /// The file holding the host's whole output, with its backtrace.
  var log: String

  /// `signal 4 (SIGILL: a Swift runtime trap)`.
  static func describe(signal: Int32) -> String {
    Divergence.describe(signal: Int(signal))
  }

  /// The crash as a report of the trace at `path` replayed in `mode`: one divergence, at the
  /// step, whose reason is `crashed`, with the step's action and the steps before it.
  func report(trace path: String, mode: ReplayMode, precedingSteps: Int) -> ReplayReport {
    ReplayReport.crash(
      trace: path, mode: mode, step: step, signal: Int(signal), reason: reason,
      precedingSteps: precedingSteps
    )
  }
}

extension HostCrash {
  /// The trace's first crash, when this one came from an isolated replay.
  ///
  /// In isolated mode several threads reduce at once, so the step a crash names crashed, but an
  /// earlier one may crash too. This replays the trace again in a new host, on one thread, in
  /// order (`"workers": 1`), where the first step to crash is the trace's first. Only a crash
  /// costs this second run, which stops at that step. Should it go otherwise (an older host
  /// ignores `workers`, the crash does not happen again, the host fails), this crash stands.
  func first(settings: HostSettings, path: String, precedingSteps: Int) -> HostCrash {
    guard step > 0, let host = try? settings.start() else { return self }
    defer { host.finish() }
    guard
      case let .crashed(again)? = try? host.replay(
        path: path, mode: .isolated, maximumDivergences: 1, precedingSteps: precedingSteps,
        workers: 1
      ), again.step <= step
    else { return self }
    // The first run's temporary log told of a later step; the second's tells of this one.
    if settings.logPath == nil, again.log != log { unlink(log) }
    return again
  }
}
