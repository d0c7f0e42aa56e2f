import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program to its end with `posix_spawn`, its input, output and errors in files.
///
/// Tests spawn many children at once; Foundation's `Process.run()` in Swift 6.3.1 crashes now and
/// then while doing so (swift-corelibs-foundation #5472), so tests spawn through this instead.
public enum ChildProcess {
  /// How a child ended, and what it wrote.
  public struct Result: Sendable {
    /// The exit status, or 128 plus the signal when a signal ended the child.
    public var status: Int32
    /// The signal that ended the child, if one did.
    public var signal: Int32?
    public var output: Data
    public var errors: Data
    /// Whether the child outlived its time limit and was killed.
    public var timedOut = false
  }

  /// Starts `executable` with its standard input, output and errors on the files at these
  /// paths, with every signal at its default and none blocked, whatever the test runner set up.
  static func spawn(
    _ executable: String, _ arguments: [String], directory: String? = nil,
    environment: [String: String], input: String, output: String, errors: String
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if let directory {
      guard addChangeDirectory(&actions, directory) == 0 else {
        throw Failure("cannot set the working directory \(directory) for \(executable)")
      }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var nothing = sigset_t()
    sigemptyset(&nothing)
    posix_spawnattr_setsigmask(&attributes, &nothing)
    var everything = sigset_t()
    sigfillset(&everything)
    posix_spawnattr_setsigdefault(&attributes, &everything)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      throw Failure("cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    return pid
  }

  /// Runs `executable` with `arguments` and waits for it.
  ///
  /// - Parameters:
  ///   - directory: the child's working directory; the parent's when `nil`.
  ///   - environment: the child's whole environment.
  ///   - input: what the child reads on its standard input.
  ///   - timeLimit: seconds after which the child is killed with SIGKILL.
  public static func run(
    _ executable: String, _ arguments: [String], directory: String? = nil,
    environment: [String: String] = Scratch.environment, input: Data = Data(),
    timeLimit: Double? = nil
  ) throws -> Result {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("child-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let inputPath = scratch.appendingPathComponent("in").path
    let outputPath = scratch.appendingPathComponent("out").path
    let errorPath = scratch.appendingPathComponent("err").path
    try input.write(to: URL(fileURLWithPath: inputPath))

    let pid = try spawn(
      executable, arguments, directory: directory, environment: environment,
      input: inputPath, output: outputPath, errors: errorPath)
    var status: Int32 = 0
    var timedOut = false
    let deadline = timeLimit.map { Date().addingTimeInterval($0) }
    while true {
      let waited = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
      if waited == pid { break }
      if waited == -1 {
        guard errno == EINTR else { throw Failure("waitpid failed for \(executable)") }
        continue
      }
      if let deadline, !timedOut, Date() > deadline {
        // SIGKILL: a runaway child may be too busy to act on SIGTERM soon.
        timedOut = true
        kill(pid, SIGKILL)
      }
      usleep(2_000)
    }
    let signal = status & 0x7f
    return Result(
      status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
      signal: signal == 0 ? nil : signal,
      output: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(),
      errors: (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data(),
      timedOut: timedOut
    )
  }

  /// ``run(_:_:directory:environment:input:timeLimit:)``, waited for on a thread of its own.
  ///
  /// An async test that waits here holds neither its actor (a `@MainActor` test would block
  /// every other one for as long as the child runs) nor one of the concurrency pool's threads,
  /// of which a 2-core machine has two.
  public static func runDetached(
    _ executable: String, _ arguments: [String], directory: String? = nil,
    environment: [String: String] = Scratch.environment, input: Data = Data(),
    timeLimit: Double? = nil
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Swift.Result {
            try run(
              executable, arguments, directory: directory, environment: environment,
              input: input, timeLimit: timeLimit)
          })
      }.start()
    }
  }

  /// A child that could not be run.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  /// glibc has `posix_spawn_file_actions_addchdir_np` since 2.29, but Swift's Glibc module does
  /// not import it; look it up by name.
  private static func addChangeDirectory(
    _ actions: inout posix_spawn_file_actions_t, _ directory: String
  ) -> Int32 {
    typealias AddChdir = @convention(c) (
      UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
    ) -> Int32
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
    let addChdir = unsafeBitCast(symbol, to: AddChdir.self)
    return addChdir(&actions, directory)
  }
}
