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
  private let process = Process()
  private let input: FileHandle
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
    let toHost = Pipe()
    let fromHost = Pipe()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exec " + command]
    process.standardInput = toHost
    process.standardOutput = fromHost
    input = toHost.fileHandleForWriting
    output = fromHost.fileHandleForReading.fileDescriptor
    do {
      try process.run()
    } catch {
      throw HostError(command, "cannot start: \(error)")
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
    guard process.isRunning else { return }
    try? input.write(contentsOf: Array(#"{"kind":"bye"}"#.utf8) + [10])
    try? input.close()
    let deadline = ContinuousClock.now + .seconds(answering ? 2 : 0)
    while process.isRunning, ContinuousClock.now < deadline { usleep(5_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  private func send(_ message: JSONValue) throws(HostError) {
    do {
      try input.write(contentsOf: message.jsonBytes + [10])
    } catch {
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
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw exited(waitingFor: what) }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  private func exited(waitingFor what: String) -> HostError {
    let deadline = ContinuousClock.now + .seconds(2)
    while process.isRunning, ContinuousClock.now < deadline { usleep(5_000) }
    if process.isRunning {
      stop()
      return HostError(command, "closed its output while tca-replay waited for \(what)")
    }
    let how =
      process.terminationReason == .uncaughtSignal
      ? "was killed by signal \(process.terminationStatus)"
        + (process.terminationStatus == SIGILL || process.terminationStatus == SIGTRAP
          ? " (a Swift runtime trap: fatalError, a failed precondition, …)" : "")
      : "exited with status \(process.terminationStatus)"
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
