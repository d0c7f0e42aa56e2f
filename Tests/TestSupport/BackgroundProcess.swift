import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program started with `posix_spawn` and left running, its output and errors in files the
/// test can read while it runs: for a child that must be watched, such as a follower. Give it
/// absolute paths: it runs in the test's directory.
public final class BackgroundProcess: @unchecked Sendable {
  public let pid: pid_t
  private let scratch: URL
  private var result: ChildProcess.Result?

  /// Starts `executable` with `arguments`, its standard input empty or the file at `input`
  /// (a FIFO lets the test write to it as it runs: ``FIFO``).
  public init(
    _ executable: String, _ arguments: [String],
    environment: [String: String] = Scratch.environment,
    input: String = "/dev/null"
  ) throws {
    scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("background-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    self.pid = try ChildProcess.spawn(
      executable, arguments, environment: environment, input: input,
      output: scratch.appendingPathComponent("out").path,
      errors: scratch.appendingPathComponent("err").path)
  }

  deinit {
    if result == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    try? FileManager.default.removeItem(at: scratch)
  }

  /// What it has written to standard output so far.
  public var output: String { read("out") }
  /// What it has written to standard error so far.
  public var errors: String { read("err") }

  private func read(_ name: String) -> String {
    let data = (try? Data(contentsOf: scratch.appendingPathComponent(name))) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// Waits until `condition` holds of the process, checking every 10 ms; `false` after
  /// `timeLimit` seconds, a bound for a broken build, not a measure of speed.
  public func wait(
    until condition: (BackgroundProcess) -> Bool, timeLimit: Double = 120
  ) -> Bool {
    let deadline = Date().addingTimeInterval(timeLimit)
    while !condition(self) {
      if Date() > deadline { return false }
      usleep(10_000)
    }
    return true
  }

  /// Waits for it to end, killing it with SIGKILL after `timeLimit` seconds.
  public func waitForExit(timeLimit: Double = 120) -> ChildProcess.Result {
    if let result { return result }
    var status: Int32 = 0
    var timedOut = false
    let deadline = Date().addingTimeInterval(timeLimit)
    while true {
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { break }
      if waited == -1, errno != EINTR { break }
      if !timedOut, Date() > deadline {
        timedOut = true
        kill(pid, SIGKILL)
      }
      usleep(5_000)
    }
    let signal = status & 0x7f
    let result = ChildProcess.Result(
      status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
      signal: signal == 0 ? nil : signal,
      output: Data(output.utf8), errors: Data(errors.utf8), timedOut: timedOut)
    self.result = result
    return result
  }
}

/// A named pipe for a child's standard input: the test writes lines to it while the child runs.
public final class FIFO: @unchecked Sendable {
  public let path: String
  private var descriptor: Int32 = -1

  /// Makes a FIFO at `path`.
  public init(_ path: String) throws {
    guard mkfifo(path, 0o600) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    self.path = path
    // Read-write, so neither this open nor the child's waits for the other end (posix_spawn
    // holds the parent until the child has opened its input).
    descriptor = open(path, O_RDWR | O_CLOEXEC)
  }

  deinit {
    close()
  }

  /// Writes `text` to the child reading the FIFO.
  public func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }

  /// Closes the writing end: the child reads the end of its input.
  public func close() {
    if descriptor >= 0 { closeDescriptor(descriptor) }
    descriptor = -1
  }
}

/// `close(2)`, for types that have a `close()` of their own.
private func closeDescriptor(_ descriptor: Int32) {
  close(descriptor)
}
