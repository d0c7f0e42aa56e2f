import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs an executable with `posix_spawn` and waits for it: Foundation's `Process` crashes now
/// and then on this toolchain, and these tests start many children.
enum ChildProcess {
  /// How a child ended.
  enum Ending: Equatable {
    case exited(Int32)
    case signaled(Int32)
  }

  /// Runs `executable` with `arguments` and `environment` added to ours; its standard output
  /// and error go to `/dev/null`.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:]
  ) throws -> Ending {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

    var variables = ProcessInfo.processInfo.environment
    for (key, value) in environment { variables[key] = value }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let failure = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard failure == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
    // WIFEXITED / WTERMSIG, which Swift does not import.
    let signal = status & 0x7f
    return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }
}
