#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals a crash raises, and how both crash handlers (the recorder's, which writes a
/// `crash` record, and a replay host's, which names the step) take them.
enum CrashSignals {
  /// A trap (`SIGTRAP`, `SIGILL`: Swift's traps are SIGILL on x86-64, SIGTRAP on arm64), a bad
  /// access (`SIGSEGV`, `SIGBUS`), an abort (`SIGABRT`) or an arithmetic fault (`SIGFPE`).
  static let all: [Int32] = [SIGTRAP, SIGILL, SIGSEGV, SIGBUS, SIGABRT, SIGFPE]

  typealias Handler =
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

  /// Installs `handler` for each of ``all``, on the alternate signal stack where the thread has
  /// one, keeping the action each replaces at `previous + signal`, to hand the signal on to.
  static func install(
    _ handler: Handler, keepingPrevious previous: UnsafeMutablePointer<sigaction>
  ) {
    for signal in all {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_sigaction = handler
      #else
        action.__sigaction_u.__sa_sigaction = handler
      #endif
      action.sa_flags = SA_SIGINFO | SA_ONSTACK
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, previous + Int(signal))
    }
  }
}
