#if canImport(Glibc)
  import Glibc
#endif
import Foundation

/// A command run with `/bin/sh -c` in a process group of its own, with pipes to its standard
/// input and output, and stopped as a group.
///
/// A host is often behind a wrapper (`swift run`, a shell script): killing the process we
/// started would leave its children running, holding `tca-replay`'s standard error, so that
/// `out=$(tca-replay bisect … 2>&1)` never returns. The group is the unit that can be stopped
/// whole. It is stopped on every way out: `terminate`, `deinit`, and SIGINT, SIGTERM or SIGHUP
/// to `tca-replay`.
final class HostProcessGroup {
  /// The process `tca-replay` started; its pid is the group's id.
  let pid: pid_t
  /// Our ends of the pipes: the host's standard input and output.
  let input: Int32
  let output: Int32
  /// How the leader ended, once reaped: a wait status, as `waitpid` gives it.
  private(set) var ending: Int32?
  private var isTerminated = false
  private(set) var isInputClosed = false

  /// How long the group has between SIGTERM and SIGKILL.
  static let grace: Duration = .milliseconds(500)

  /// Starts `command` with its standard error on `standardError`, or throws the `errno` of what
  /// failed.
  init(command: String, standardError: Int32) throws(StartFailure) {
    Self.installSignalHandlers()
    // A host that dies while we write to it must be an error, not a SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    var toHost: [Int32] = [-1, -1]
    var fromHost: [Int32] = [-1, -1]
    guard pipe(&toHost) == 0 else { throw StartFailure(errno) }
    guard pipe(&fromHost) == 0 else {
      let code = errno
      close(toHost[0])
      close(toHost[1])
      throw StartFailure(code)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toHost[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromHost[1], 1)
    posix_spawn_file_actions_adddup2(&actions, standardError, 2)
    for descriptor in toHost + fromHost { posix_spawn_file_actions_addclose(&actions, descriptor) }

    // The signals that stop hosts are blocked from before the spawn until the group is
    // registered, so none can arrive while a host runs that the handler does not know of.
    var stopping = Self.stoppingSignals
    pthread_sigmask(SIG_BLOCK, &stopping, nil)
    defer { pthread_sigmask(SIG_UNBLOCK, &stopping, nil) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own group, and no blocked signals: a host starts as a shell would start it, whatever
    // mask we inherited, so SIGTERM can stop it.
    var nothing = sigset_t()
    sigemptyset(&nothing)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setsigmask(&attributes, &nothing)
    // SIGPIPE back to its default: we ignore it, and an ignored signal stays ignored across
    // exec. A host's `producer | head -n 1` would leave the producer complaining of a broken
    // pipe, or writing to it forever, instead of ending quietly.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes,
      Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    )

    let words: [String] = ["/bin/sh", "-c", "exec " + command]
    let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { for argument in arguments { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
    close(toHost[0])
    close(fromHost[1])
    guard spawned == 0 else {
      close(toHost[1])
      close(fromHost[0])
      throw StartFailure(spawned)
    }
    Self.register(pid)
    // Our ends stay out of any other child, so a host sees the end of its input when we close it.
    _ = fcntl(toHost[1], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fromHost[0], F_SETFD, FD_CLOEXEC)
    self.pid = pid
    input = toHost[1]
    output = fromHost[0]
  }

  deinit {
    terminate()
  }

  /// Whether the leader has exited (and is reaped), waiting up to `duration` for it.
  func hasExited(within duration: Duration) -> Bool {
    let deadline = ContinuousClock.now + duration
    while true {
      if ending != nil { return true }
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid || (result < 0 && errno == ECHILD) {
        ending = result == pid ? status : 0
        return true
      }
      if ContinuousClock.now >= deadline { return false }
      usleep(5_000)
    }
  }

  /// Closes the host's standard input: it reads the end of it. Does nothing the second time.
  func closeInput() {
    guard !isInputClosed else { return }
    isInputClosed = true
    close(input)
  }

  /// Closes the pipes and stops every process left in the group: SIGTERM, up to `grace` for
  /// them to go, then SIGKILL. Does nothing the second time.
  func terminate() {
    guard !isTerminated else { return }
    isTerminated = true
    closeInput()
    close(output)
    // Reaping the leader first keeps a leader that already left from counting as a member.
    // Its pid stays reserved while any member of its group lives, so the id cannot be reused.
    _ = hasExited(within: .zero)
    if kill(-pid, 0) == 0 {
      kill(-pid, SIGTERM)
      let deadline = ContinuousClock.now + Self.grace
      // A zombie counts as a member here, so this may wait the whole grace; it is short.
      while ContinuousClock.now < deadline {
        _ = hasExited(within: .zero)
        if kill(-pid, 0) != 0 { break }
        usleep(10_000)
      }
      kill(-pid, SIGKILL)
      // SIGKILL takes effect when a process next runs; until then it can still write to our
      // standard error, after what we are about to print. A moment is enough (zombies,
      // which this cannot tell from the living, make it wait the whole moment).
      let killed = ContinuousClock.now + .milliseconds(100)
      while ContinuousClock.now < killed, kill(-pid, 0) == 0 {
        _ = hasExited(within: .zero)
        usleep(5_000)
      }
    }
    // A leader that left its group (setpgid) escaped the group's signals, not this one.
    if !hasExited(within: .zero) { kill(pid, SIGKILL) }
    _ = hasExited(within: .seconds(5))
    Self.unregister(pid)
  }

  /// Why a host could not be started: an `errno` value.
  struct StartFailure: Error {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
  }

  // MARK: Signals

  /// How many hosts can run at once with their signal cleanup: `verify --jobs` at most.
  static let slots = 64

  /// The groups of the hosts that are running, 0 in a free slot; read by the signal handler, so
  /// plain words allocated before the handler is installed.
  nonisolated(unsafe) static let running: UnsafeMutablePointer<pid_t> = {
    let words = UnsafeMutablePointer<pid_t>.allocate(capacity: slots)
    words.initialize(repeating: 0, count: slots)
    return words
  }()

  /// The paths of the temporary logs of the hosts that are running, 4096 bytes a slot, empty
  /// in a free one: the signal handler deletes them. Allocated before the handler is installed.
  nonisolated(unsafe) static let temporaryLog: UnsafeMutablePointer<CChar> = {
    let paths = UnsafeMutablePointer<CChar>.allocate(capacity: 4_096 * slots)
    paths.initialize(repeating: 0, count: 4_096 * slots)
    return paths
  }()

  /// Guards the slots between threads; the handler only reads them.
  private static let slotLock = NSLock()

  /// Runs `body` with the stopping signals blocked on this thread and the slots locked.
  private static func withSlots(_ body: () -> Void) {
    var stopping = stoppingSignals
    pthread_sigmask(SIG_BLOCK, &stopping, nil)
    defer { pthread_sigmask(SIG_UNBLOCK, &stopping, nil) }
    slotLock.lock()
    defer { slotLock.unlock() }
    body()
  }

  private static func register(_ group: pid_t) {
    withSlots {
      if let free = (0..<slots).first(where: { running[$0] == 0 }) { running[free] = group }
    }
  }

  private static func unregister(_ group: pid_t) {
    withSlots {
      for slot in 0..<slots where running[slot] == group { running[slot] = 0 }
    }
  }

  /// Adds a temporary log for the signal handler to delete, or, with `removing`, takes it out.
  static func setTemporaryLog(_ path: String, removing: Bool = false) {
    let bytes = Array(path.utf8.prefix(4_095))
    withSlots {
      func holds(_ slot: Int) -> Bool {
        let start = temporaryLog + slot * 4_096
        return (0..<bytes.count).allSatisfy { start[$0] == CChar(bitPattern: bytes[$0]) }
          && start[bytes.count] == 0
      }
      if removing {
        for slot in 0..<slots where holds(slot) { temporaryLog[slot * 4_096] = 0 }
        return
      }
      guard let free = (0..<slots).first(where: { temporaryLog[$0 * 4_096] == 0 }) else { return }
      let start = temporaryLog + free * 4_096
      for (offset, byte) in bytes.enumerated() { start[offset] = CChar(bitPattern: byte) }
      start[bytes.count] = 0
    }
  }

  /// The signals after which `tca-replay` stops its host before dying of them.
  static let stoppingSignals: sigset_t = {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
    return set
  }()

  private static let handlersInstalled: Bool = {
    _ = running
    _ = temporaryLog
    for stoppingSignal in [SIGINT, SIGTERM, SIGHUP] {
      let previous = signal(stoppingSignal, { received in HostProcessGroup.stopRunning(received) })
      // A signal the caller chose to ignore (`nohup`, a background job) stays ignored.
      if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
        signal(stoppingSignal, SIG_IGN)
      }
    }
    // The handlers must be able to run: a parent may have left these signals blocked (Foundation's
    // `Process` on Linux starts children with nearly every signal blocked).
    var stopping = stoppingSignals
    pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
    return true
  }()

  static func installSignalHandlers() {
    _ = handlersInstalled
  }

  /// The signal handler: stops the running host's group as `terminate` does, with only
  /// async-signal-safe calls, then dies of the signal as if there had been no handler.
  private static func stopRunning(_ received: Int32) {
    for slot in 0..<slots where running[slot] > 0 {
      let group = running[slot]
      kill(-group, SIGTERM)
      for _ in 0..<50 {
        var status: Int32 = 0
        _ = waitpid(group, &status, WNOHANG)
        if kill(-group, 0) != 0 { break }
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        nanosleep(&pause, nil)
      }
      kill(-group, SIGKILL)
    }
    // Nobody will be told of a temporary log now: they go too.
    for slot in 0..<slots where temporaryLog[slot * 4_096] != 0 {
      unlink(temporaryLog + slot * 4_096)
    }
    signal(received, SIG_DFL)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigaddset(&unblocked, received)
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    raise(received)
  }
}
