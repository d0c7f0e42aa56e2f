#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Recorder

/// A replay host that `tca-replay` started, and the protocol spoken with it.
///
/// Every wait is bounded: for the host's `hello`, and between any two of its messages while it
/// replays (it sends progress a few times a second). A host that exits, stays silent past the
/// timeout or writes something that is not the protocol is stopped and reported in one line.
final class HostProcess {
  /// The protocol version this tool speaks.
  static let protocolVersion = ReplayHost.protocolVersion

  let command: String
  let timeout: Duration
  /// The host's process id; the host is started and reaped here, with no Foundation `Process`,
  /// so every wait has a deadline.
  private let pid: pid_t
  /// Our ends of the pipes: the host's standard input and output.
  private let input: Int32
  private let output: Int32
  private var buffer: [UInt8] = []
  private var nextID = 1
  /// The reducers the host serves, from its `hello`.
  private(set) var reducers: [String] = []

  /// Starts `command` with `/bin/sh -c` and waits for its `hello`.
  init(command: String, timeout: Duration) throws(HostError) {
    self.command = command
    self.timeout = timeout
    // A host that dies while we write to it must be an error, not a SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    var toHost: [Int32] = [-1, -1]
    var fromHost: [Int32] = [-1, -1]
    guard pipe(&toHost) == 0, pipe(&fromHost) == 0 else {
      throw HostError(command, "cannot start: \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toHost[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromHost[1], 1)
    for descriptor in toHost + fromHost { posix_spawn_file_actions_addclose(&actions, descriptor) }
    let words: [String] = ["/bin/sh", "-c", "exec " + command]
    let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { for argument in arguments { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, arguments, environ)
    close(toHost[0])
    close(fromHost[1])
    // Our ends stay out of any other child, so a host sees the end of its input when we close it.
    _ = fcntl(toHost[1], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fromHost[0], F_SETFD, FD_CLOEXEC)
    self.pid = pid
    input = toHost[1]
    output = fromHost[0]
    guard spawned == 0 else {
      close(input)
      close(output)
      ending = 0
      throw HostError(command, "cannot start: \(String(cString: strerror(spawned)))")
    }
    let hello = try receive(waitingFor: "its hello")
    guard hello["kind"]?.stringValue == "hello", let version = hello["protocol"]?.int64Value
    else {
      throw nonsense(hello.jsonString, expected: "a hello")
    }
    guard version <= Self.protocolVersion else {
      stop()
      throw HostError(
        command,
        "speaks replay host protocol version \(version); this tool speaks up to "
          + "\(Self.protocolVersion): rebuild the host with the same tca-replay version"
      )
    }
    reducers = (hello["reducers"]?.arrayValue ?? []).compactMap { $0["reducer"]?.stringValue }
  }

  deinit {
    stop()
    close(input)
    close(output)
  }

  /// What the host answered a replay request.
  enum Answer {
    case report(ReplayReport)
    /// The host could not replay the trace: `problem` is the protocol's problem name.
    case refused(problem: String, message: String)
  }

  /// Asks the host to replay the trace at `path`.
  func replay(
    path: String, mode: ReplayMode, maximumDivergences: Int, precedingSteps: Int
  ) throws(HostError) -> Answer {
    let id = nextID
    nextID += 1
    try send([
      "kind": "replay", "id": .integer(Int64(id)), "trace": .string(path),
      "mode": .string(mode.rawValue),
      "maximumDivergences": .integer(Int64(maximumDivergences)),
      "precedingSteps": .integer(Int64(precedingSteps)),
    ])
    while true {
      let message = try receive(waitingFor: "its report on \(path)")
      guard message["id"]?.int64Value == Int64(id) || message["kind"]?.stringValue == "error"
      else {
        throw nonsense(message.jsonString, expected: "an answer to request \(id)")
      }
      switch message["kind"]?.stringValue {
      case "progress":
        continue
      case "report":
        guard let json = message["report"],
          let report = try? JSONValueDecoder().decode(ReplayReport.self, from: json)
        else {
          throw nonsense(message.jsonString, expected: "a report")
        }
        return .report(report)
      case "error":
        return .refused(
          problem: message["problem"]?.stringValue ?? "unknown",
          message: message["message"]?.stringValue ?? "(no message)"
        )
      default:
        continue  // Unknown kinds are skipped, as the protocol says.
      }
    }
  }

  /// Says goodbye and waits briefly for the host to exit; then kills it. A host that is not
  /// `answering` (it hung or spoke nonsense) is killed at once.
  func stop(answering: Bool = true) {
    guard !hasExited(within: .zero) else { return }
    _ = writeAll(Array(#"{"kind":"bye"}"#.utf8) + [10])
    if hasExited(within: .seconds(answering ? 2 : 0)) { return }
    kill(pid, SIGKILL)
    _ = hasExited(within: .seconds(5))
  }

  /// How the host ended, once it has: `status` is a wait status, as `waitpid` gives it.
  private var ending: Int32?

  /// Whether the host has exited (and is reaped), waiting up to `duration` for it.
  private func hasExited(within duration: Duration) -> Bool {
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

  /// Writes all of `bytes` to the host's input; `false` if the host is gone.
  private func writeAll(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = write(input, raw.baseAddress! + offset, raw.count - offset)
        if written < 0, errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
  }

  private func send(_ message: JSONValue) throws(HostError) {
    guard writeAll(message.jsonBytes + [10]) else {
      throw exited(waitingFor: "a request")
    }
  }

  /// The next message from the host, waiting at most `timeout` for it.
  private func receive(waitingFor what: String) throws(HostError) -> JSONValue {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let newline = buffer.firstIndex(of: 10) {
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        guard let message = try? JSONValue(parsing: line), case .object = message else {
          throw nonsense(String(decoding: line, as: UTF8.self), expected: "a JSON object")
        }
        return message
      }
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else {
        stop(answering: false)
        throw HostError(
          command,
          "said nothing for \(Self.seconds(timeout)) while tca-replay waited for \(what); "
            + "stopped it (raise --timeout if the host is just slow)"
        )
      }
      var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min(remaining.components.seconds * 1000 + 1, 1000))
      let ready = poll(&descriptor, 1, milliseconds)
      if ready < 0, errno == EINTR { continue }
      guard ready > 0 else {
        // A crash reporter the host started may hold its output open after the host died.
        if hasExited(within: .zero) { throw exited(waitingFor: what) }
        continue
      }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw exited(waitingFor: what) }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  private func exited(waitingFor what: String) -> HostError {
    guard hasExited(within: .seconds(2)), let status = ending else {
      stop(answering: false)
      return HostError(command, "closed its output while tca-replay waited for \(what)")
    }
    let signal = status & 0x7f
    let how =
      signal != 0
      ? "was killed by signal \(signal)"
        + (signal == SIGILL || signal == SIGTRAP
          ? " (a Swift runtime trap: fatalError, a failed precondition, …)" : "")
      : "exited with status \((status >> 8) & 0xff)"
    return HostError(command, "\(how) while tca-replay waited for \(what)")
  }

  private func nonsense(_ line: String, expected: String) -> HostError {
    stop(answering: false)
    let shown = line.count > 80 ? line.prefix(77) + "…" : line
    return HostError(
      command,
      "does not speak the replay host protocol: expected \(expected), got \"\(shown)\""
    )
  }

  private static func seconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds)
      + Double(duration.components.attoseconds) / 1e18
    return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}

/// A replay host that cannot be used: it did not start, exited, hung or spoke nonsense.
struct HostError: Error, CustomStringConvertible {
  var command: String
  var problem: String

  init(_ command: String, _ problem: String) {
    self.command = command
    self.problem = problem
  }

  /// One line: `the replay host 'cmd' exited with status 3 while …`.
  var description: String { "the replay host '\(command)' \(problem)" }
}
