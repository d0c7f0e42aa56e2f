#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Recorder
import TraceJSON

/// A replay host that `tca-replay` started, and the protocol spoken with it.
///
/// Every wait is bounded: for the host's `hello`; between two signs of progress while it
/// replays (it sends progress a few times a second), where only `progress` reporting more steps
/// than before counts; and for the whole of one request, twice `timeout` plus `timeout` per MiB
/// of trace. A host that exits, stays silent past the timeout, writes a line longer than
/// `maximumLineLength` or anything that is not the protocol is stopped with its whole process
/// group and reported in one line.
final class HostProcess {
  /// The newest protocol version this tool speaks.
  static let protocolVersion = ReplayHost.protocolVersion
  /// The oldest protocol version this tool speaks.
  static let oldestProtocolVersion = 1
  /// The longest line a host may write. A report detailing every divergence of a large trace
  /// fits many times over; a host writing more is broken, and the line would only cost memory.
  static let maximumLineLength = 64 << 20
  /// How long a host may take to leave after `bye` (at most `timeout`).
  static let byeGrace: Duration = .seconds(2)

  let command: String
  let timeout: Duration
  /// Where the host's standard error goes.
  let log: HostLog
  /// How much the log held when the host started: what it wrote is what follows.
  private let logStart: Int
  /// Whether the log must outlive the host: it holds a crash's backtrace.
  private var keepsLog = false
  private let group: HostProcessGroup
  private var lines = HostLineBuffer(maximumLength: HostProcess.maximumLineLength)
  /// Where reads land; kept, so a flood of small reads allocates nothing.
  private var chunk = [UInt8](repeating: 0, count: 65_536)
  private var nextID = 1
  /// How many bytes the host has written: whether it said anything since a point.
  private var bytesReceived = 0
  /// The reducers the host serves, from its `hello`.
  private(set) var reducers: [String] = []
  /// The protocol version the host announced.
  private(set) var speaks = 0

  /// Starts `command` with `/bin/sh -c`, in a process group of its own, with its standard error
  /// appended to `logPath` (or a temporary file), and waits for its `hello`.
  init(command: String, timeout: Duration, logPath: String? = nil) throws(HostError) {
    self.command = command
    self.timeout = timeout
    do {
      log = try HostLog(path: logPath)
    } catch {
      throw HostError(command, error.description)
    }
    logStart = log.size
    do {
      group = try HostProcessGroup(command: command, standardError: log.descriptor)
    } catch {
      throw HostError(command, "cannot start: \(error.description)")
    }
    let what = "its hello"
    guard let hello = try receive(waitingFor: what, until: ContinuousClock.now + timeout) else {
      throw silent(waitingFor: what, heard: bytesReceived > 0)
    }
    guard let greeting = HostMessage.read(HostMessage.Hello.self, from: hello),
      greeting.kind == "hello"
    else {
      throw nonsense(hello.jsonString, expected: "a hello")
    }
    let version = greeting.protocol
    guard version >= Self.oldestProtocolVersion else {
      throw stopped(
        "announces replay host protocol version \(version), which does not exist: this tool "
          + "speaks versions \(Self.oldestProtocolVersion) to \(Self.protocolVersion)"
      )
    }
    guard version <= Self.protocolVersion else {
      throw stopped(
        "speaks replay host protocol version \(version); this tool speaks up to "
          + "\(Self.protocolVersion): rebuild the host with the same tca-replay version"
      )
    }
    reducers = greeting.reducers.map(\.reducer)
    speaks = version
  }

  /// What the host answered a replay request.
  enum Answer {
    case report(ReplayReport)
    /// The host could not replay the trace: `problem` is the protocol's problem name.
    case refused(problem: String, message: String)
    /// The host died while reducing a step of the trace: the reducer crashed.
    case crashed(HostCrash)
  }

  /// Asks the host to replay the trace at `path`; with `workers`, on that many threads.
  func replay(
    path: String, mode: ReplayMode, maximumDivergences: Int, precedingSteps: Int,
    workers: Int? = nil
  ) throws(HostError) -> Answer {
    let id = takeRequestID()
    let request = HostMessage.Replay(
      id: id, trace: path, mode: mode.rawValue, maximumDivergences: maximumDivergences,
      precedingSteps: precedingSteps, workers: workers)
    switch try converse(HostMessage.json(request), id: id, about: path, answer: "report") {
    case let .answer(message):
      guard let report = HostMessage.read(HostMessage.Report.self, from: message)?.report else {
        throw nonsense(message.jsonString, expected: "a report")
      }
      // A verdict read from a report that contradicts itself would be wrong one way or the
      // other: `bisect` reads the count, `verify` the details.
      if let contradiction = Self.contradiction(in: report) {
        throw nonsense(
          message.jsonString, expected: "a report whose counts agree (\(contradiction))"
        )
      }
      return .report(report)
    case let .refused(problem, message): return .refused(problem: problem, message: message)
    case let .crashed(crash): return .crashed(crash)
    }
  }

  /// A new request's id.
  func takeRequestID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  /// What the host answered a request: the message of the kind asked for, an error, or a crash.
  enum Reply {
    case answer(JSONValue)
    case refused(problem: String, message: String)
    case crashed(HostCrash)
  }

  /// Sends `request` and reads messages until its answer, of kind `answer`, an `error` or a
  /// `crash`, keeping the host's time bounded by its progress.
  func converse(
    _ request: JSONValue, id: Int, about path: String, answer: String
  ) throws(HostError) -> Reply {
    // Where this request's output starts, read before the host can write any: a host that
    // crashes on the first step may write its reason before `send` returns.
    let logOffset = log.size
    try send(request)
    let what = "its \(answer) on \(path)"
    let limit = Self.requestLimit(timeout: timeout, traceBytes: Self.size(of: path))
    let end = ContinuousClock.now + limit
    var quietUntil = ContinuousClock.now + timeout
    // Only progress that counts more steps than before shows the host is working: a host
    // repeating itself, or chattering in kinds we skip, is as good as silent.
    var steps = Int64.min
    var bytesAtProgress = bytesReceived
    // Whether a message came after the last progress: bytes are counted as they are read, so
    // messages read together with a progress would not count.
    var heardSinceProgress = false
    while true {
      guard let message = try receive(waitingFor: what, until: min(quietUntil, end)) else {
        guard quietUntil < end else {
          throw stopped(
            "took longer than \(Self.seconds(limit)) over \(what) (the limit is twice "
              + "--timeout, plus --timeout per MiB of trace); stopped it (raise --timeout if "
              + "the host is just slow)"
          )
        }
        throw silent(
          waitingFor: what, heard: heardSinceProgress || bytesReceived > bytesAtProgress)
      }
      heardSinceProgress = true
      let head = HostMessage.read(HostMessage.Head.self, from: message)
      guard let kind = head?.kind, ["progress", answer, "error", "crash"].contains(kind) else {
        continue  // Unknown kinds are skipped, as the protocol says.
      }
      // An answer names the request it answers; an error may say null for a request it could
      // not read, and there is only ever one.
      let answersThis =
        head?.id?.int64Value == Int64(id) || (kind == "error" && head?.id == JSONValue.null)
      guard answersThis else {
        throw nonsense(message.jsonString, expected: "an answer to request \(id)")
      }
      switch kind {
      case "progress":
        if let count = HostMessage.read(HostMessage.Progress.self, from: message)?.steps,
          Int64(count) > steps
        {
          steps = Int64(count)
          quietUntil = ContinuousClock.now + timeout
          bytesAtProgress = bytesReceived
          heardSinceProgress = false
        }
      case answer:
        return .answer(message)
      case "crash":
        return try crashed(message, waitingFor: what, logOffset: logOffset)
      default:
        // One line, whatever the host put in it: it is printed after `Error: `.
        let failure = HostMessage.read(HostMessage.Failure.self, from: message)
        return .refused(
          problem: failure?.problem ?? "unknown",
          message: (failure?.message ?? "(no message)").escapingControlCharacters
        )
      }
    }
  }

  /// The host said it crashed: waits for it to die (its backtrace goes to the log), stops its
  /// group, and reads the reason back from the log. A crash outside any step (in the host's own
  /// code, not the reducer's) cannot be blamed on the reducer: the host failed.
  private func crashed(
    _ message: JSONValue, waitingFor what: String, logOffset: Int
  ) throws(HostError) -> Reply {
    let crash = HostMessage.read(HostMessage.Crash.self, from: message)
    let signal = crash?.signal ?? 0
    // Swift's backtracer takes a moment to write the backtrace; it is for the log, not for us.
    _ = group.hasExited(within: timeout)
    group.terminate()
    keepsLog = true
    log.keep()
    let reason = HostLog.reason(in: log.text(since: logOffset))
    guard let step = crash?.step, step >= 0 else {
      return try failed(
        "crashed outside any step, of \(HostCrash.describe(signal: signal)), while tca-replay "
          + "waited for \(what)" + (reason.first.map { ": \($0)" } ?? "")
      )
    }
    return .crashed(
      HostCrash(step: step, signal: signal, reason: reason, log: log.path)
    )
  }

  /// What makes `report` contradict itself, if anything: a negative count, or divergent steps
  /// counted but none detailed, or detailed but not counted. `tca-replay` always asks for at
  /// least one divergence in detail.
  static func contradiction(in report: ReplayReport) -> String? {
    let counts = [
      ("steps", report.steps), ("replayed", report.replayed),
      ("divergentSteps", report.divergentSteps), ("unknown", report.unknown),
    ]
    if let (name, count) = counts.first(where: { $0.1 < 0 }) {
      return "\(name) is \(count)"
    }
    if report.divergentSteps == 0, !report.divergences.isEmpty {
      return "divergentSteps is 0, with \(counted(report.divergences.count, "divergence")) detailed"
    }
    if report.divergentSteps > 0, report.divergences.isEmpty {
      return "divergentSteps is \(report.divergentSteps), with no divergence detailed"
    }
    if report.divergences.count > report.divergentSteps {
      return "divergentSteps is \(report.divergentSteps), with \(report.divergences.count) "
        + "divergences detailed"
    }
    return nil
  }

  /// The most one request may take: twice `timeout`, plus `timeout` for each MiB of the trace,
  /// so that `--timeout` alone scales it, and a host can keep a request alive for no longer.
  /// Twice, so that a small trace's host that starts slowly but then makes steady progress is
  /// not cut off just after its first `timeout`.
  static func requestLimit(timeout: Duration, traceBytes: Int) -> Duration {
    let mebibytes = Double(max(traceBytes, 0)) / 1_048_576
    return min(timeout * (2 + mebibytes), .seconds(1_000_000_000))
  }

  /// Says goodbye, waits briefly for the host to exit, then stops whatever is left of its
  /// process group. Returns a problem to warn about if the host did not leave in time: the
  /// answers it gave stand.
  @discardableResult
  func finish() -> HostError? {
    let grace = min(Self.byeGrace, timeout)
    defer {
      group.terminate()
      if !keepsLog { log.discard() }
    }
    guard !group.hasExited(within: .zero) else { return nil }
    _ = writeAll(HostMessage.json(HostMessage.Bye()).jsonBytes + [10])
    // The end of its input says goodbye too: a host that reads to the end before it leaves (a
    // wrapper's `tee log | host`, a `cat` in a pipeline) leaves now, not when stopped.
    group.closeInput()
    guard group.hasExited(within: grace) else {
      return HostError(command, "did not exit within \(Self.seconds(grace)) of bye; stopped it")
    }
    return nil
  }

  /// Writes all of `bytes` to the host's input; `false` if the host is gone.
  private func writeAll(_ bytes: [UInt8]) -> Bool {
    guard !group.isInputClosed else { return false }
    return bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = write(group.input, raw.baseAddress! + offset, raw.count - offset)
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

  /// The next message from the host; `nil` if none came before `deadline`.
  private func receive(
    waitingFor what: String, until deadline: ContinuousClock.Instant
  ) throws(HostError) -> JSONValue? {
    while true {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else { return nil }
      let line: [UInt8]?
      do {
        line = try lines.nextLine()
      } catch {
        throw stopped(
          "wrote a line longer than \(Self.maximumLineLength >> 20) MiB while tca-replay "
            + "waited for \(what); stopped it"
        )
      }
      if let line {
        guard let message = try? JSONValue(parsing: line), case .object = message else {
          throw nonsense(String(decoding: line, as: UTF8.self), expected: "a JSON object")
        }
        return message
      }
      var descriptor = pollfd(fd: group.output, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min(remaining.components.seconds * 1000 + 1, 1000))
      let ready = poll(&descriptor, 1, milliseconds)
      if ready < 0, errno == EINTR { continue }
      guard ready > 0 else {
        // A crash reporter the host started may hold its output open after the host died.
        if group.hasExited(within: .zero) { throw exited(waitingFor: what) }
        continue
      }
      let count = chunk.withUnsafeMutableBytes { read(group.output, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw exited(waitingFor: what) }
      bytesReceived += count
      chunk.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
  }

  /// Stops the host's group and describes the problem, naming the log if the host wrote in it.
  func stopped(_ problem: String) -> HostError {
    group.terminate()
    let wrote = log.size > logStart
    log.discardIfEmpty()
    if wrote { log.keep() }
    return HostError(command, problem + (wrote ? "; its output is in \(log.path)" : ""))
  }

  /// `stopped`, thrown: for use where an answer is returned.
  private func failed(_ problem: String) throws(HostError) -> Reply {
    throw stopped(problem)
  }

  private func silent(waitingFor what: String, heard: Bool) -> HostError {
    stopped(
      "\(heard ? "made no progress" : "said nothing") for \(Self.seconds(timeout)) while "
        + "tca-replay waited for \(what); stopped it (raise --timeout if the host is just slow)"
    )
  }

  private func exited(waitingFor what: String) -> HostError {
    guard group.hasExited(within: min(.seconds(2), timeout)), let status = group.ending else {
      return stopped("closed its output while tca-replay waited for \(what)")
    }
    let signal = status & 0x7f
    let how =
      signal != 0
      ? "was killed by signal \(signal)"
        + (signal == SIGILL || signal == SIGTRAP
          ? " (a Swift runtime trap: fatalError, a failed precondition, …)" : "")
      : "exited with status \((status >> 8) & 0xff)"
    return stopped("\(how) while tca-replay waited for \(what)")
  }

  func nonsense(_ line: String, expected: String) -> HostError {
    let shown = line.count > 80 ? line.prefix(77) + "…" : line
    return stopped(
      "does not speak the replay host protocol: expected \(expected), got \"\(shown)\""
    )
  }

  /// The size of the file at `path` in bytes; 0 if it cannot be read (the host will say why).
  private static func size(of path: String) -> Int {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.size] as? NSNumber)?.intValue ?? 0
  }

  static func seconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds)
      + Double(duration.components.attoseconds) / 1e18
    let hundredths = (value * 100).rounded() / 100
    return hundredths == hundredths.rounded() ? "\(Int(hundredths)) s" : "\(hundredths) s"
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
