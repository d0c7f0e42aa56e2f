#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Architecture
import TraceJSON

/// The replay host: a small executable in your package that lets `tca-replay` replay traces
/// through your reducers, which the tool cannot link itself.
///
/// The whole `main.swift` of a host is one line:
///
/// ```swift
/// ReplayHost.run(CounterFeature(), TodosFeature())
/// ```
///
/// `tca-replay bisect trace.ndjson --host .build/debug/my-replay-host` then starts it and talks
/// to it over standard input and output, one JSON object per line, as
/// `Documentation/ReplayHostProtocol.md` describes. A host serves every trace recorded from one
/// of its reducers' `State` and `Action` types. Anything the app prints while replaying goes to
/// standard error, so it cannot garble the protocol.
public enum ReplayHost {
  /// The protocol version this build speaks; the host announces it in its `hello`.
  public static let protocolVersion = 3

  /// Serves `reducers` until `tca-replay` says goodbye or closes the host's input, then exits.
  public static func run<each Base: Reducer>(_ reducer: repeat each Base) -> Never
  where repeat (each Base).State: Codable, repeat (each Base).Action: Codable {
    var targets: [ReplayTarget] = []
    for reducer in repeat each reducer { targets.append(ReplayTarget(reducer)) }
    run(targets)
  }

  /// Serves `reducer`s whose `State` or `Action` is not `Codable`, rebuilding recorded values
  /// by reflection, until `tca-replay` says goodbye or closes the host's input, then exits.
  ///
  /// ```swift
  /// ReplayHost.run(QuizFeature(), SettingsFeature())
  /// ```
  ///
  /// The host links the app's module: features with `internal` types need `@testable import`,
  /// which works in debug builds (see `Documentation/Replay.md`).
  public static func run<each Base: Reducer>(_ reducer: repeat each Base) -> Never {
    var targets: [ReplayTarget] = []
    for reducer in repeat each reducer { targets.append(ReplayTarget(reducer)) }
    run(targets)
  }

  /// Serves `targets` until `tca-replay` says goodbye or closes the host's input, then exits.
  public static func run(_ targets: [ReplayTarget]) -> Never {
    // The protocol keeps the real standard output; everything else printed goes to stderr.
    let channel = dup(1)
    dup2(2, 1)
    let connection = HostConnection(input: 0, output: channel)
    // A reducer that traps still tells tca-replay which step it was reducing.
    CrashSite.arm(channel: channel)
    connection.send(hello(targets))
    var recording: LoadedRecording?
    while let line = connection.readLine() {
      guard let request = try? JSONValue(parsing: line), case .object = request,
        let head = HostMessage.read(HostMessage.Head.self, from: request)
      else {
        connection.send(error(id: nil, problem: "badRequest", "a request must be a JSON object"))
        continue
      }
      let id = head.id ?? .null
      switch head.kind {
      case "replay":
        connection.send(replay(request, id: id, targets: targets, connection: connection))
      case "run":
        connection.send(run(request, id: id, targets: targets, recording: &recording))
      case "blame":
        connection.send(blame(request, id: id, targets: targets, recording: &recording))
      case "bye":
        exit(0)
      default:
        // Unknown kinds are ignored, as in traces, so newer tools can probe older hosts.
        continue
      }
    }
    exit(0)
  }

  static func hello(_ targets: [ReplayTarget]) -> JSONValue {
    HostMessage.json(
      HostMessage.Hello(
        protocol: protocolVersion, tool: "tca-replay \(toolVersion)",
        reducers: targets.map {
          HostMessage.Hello.Reducer(
            reducer: $0.reducer, stateType: $0.stateType, actionType: $0.actionType)
        }))
  }

  static func error(id: JSONValue?, problem: String, _ message: String) -> JSONValue {
    HostMessage.json(HostMessage.Failure(id: id ?? .null, problem: problem, message: message))
  }

  static func replay(
    _ json: JSONValue, id: JSONValue, targets: [ReplayTarget], connection: HostConnection
  ) -> JSONValue {
    guard let request = HostMessage.read(HostMessage.Replay.self, from: json) else {
      return error(
        id: id, problem: "badRequest",
        "a replay request needs a \"trace\" string, and whole numbers for its counts")
    }
    let path = request.trace
    var options = ReplayOptions()
    if let mode = request.mode {
      guard let value = ReplayMode(rawValue: mode) else {
        return error(id: id, problem: "badRequest", "unknown mode \"\(mode)\"")
      }
      options.mode = value
    }
    if let count = request.maximumDivergences { options.maximumDivergences = count }
    if let count = request.precedingSteps { options.precedingSteps = count }
    // One thread reduces the steps in order: what finds the first step that crashes.
    if let count = request.workers, count > 0 {
      options.workers = min(count, 1_024)
    }
    // Progress, at most a few times a second, tells tca-replay the host is alive and working.
    let throttle = Throttle(interval: .milliseconds(250))
    options.progress = { steps in
      guard throttle.isDue() else { return }
      connection.send(HostMessage.json(HostMessage.Progress(id: id, steps: steps)))
    }

    let header: TraceHeader
    do {
      header = try ReplayError.reading(TraceReader(path: path).readHeader())
    } catch {
      return self.error(id: id, problem: problem(error), error.description)
    }
    let target: ReplayTarget
    switch self.target(for: header, of: path, among: targets, id: id) {
    case let .success(found): target = found
    case let .failure(refusal): return refusal.message
    }
    CrashSite.begin(request: id)
    defer { CrashSite.end() }
    do {
      let report = try target.replay(tracePath: path, options: options)
      return try JSONValueEncoder().encode(HostMessage.Report(id: id, report: report))
    } catch let failure as ReplayError {
      return error(id: id, problem: problem(failure), failure.description)
    } catch {
      return self.error(id: id, problem: "badRequest", "\(error)")
    }
  }

  /// Runs a history (protocol version 2): `tca-replay shrink`, and the stepper's what-ifs.
  static func run(
    _ request: JSONValue, id: JSONValue, targets: [ReplayTarget],
    recording cached: inout LoadedRecording?
  ) -> JSONValue {
    let history: History
    do throws(HistoryRequestError) {
      history = try History(json: request)
    } catch {
      return self.error(id: id, problem: "badRequest", error.description)
    }
    let recording: LoadedRecording
    do throws(ReplayError) {
      recording = try LoadedRecording.load(history.trace, cached: cached)
    } catch {
      return self.error(id: id, problem: problem(error), error.description)
    }
    cached = recording
    let target: ReplayTarget
    switch self.target(for: recording.header, of: history.trace, among: targets, id: id) {
    case let .success(found): target = found
    case let .failure(refusal): return refusal.message
    }
    CrashSite.begin(request: id)
    defer { CrashSite.end() }
    do {
      let outcome = try target.run(history, in: recording)
      return try JSONValueEncoder().encode(HostMessage.Outcome(id: id, outcome: outcome))
    } catch let failure as HistoryRequestError {
      return error(id: id, problem: "badRequest", failure.description)
    } catch {
      // The initial state or a state that does not decode or encode with today's types.
      return self.error(id: id, problem: "badRequest", "\(history.trace): \(error)")
    }
  }

  /// Runs one step again with every composition boundary instrumented (protocol version 3):
  /// `tca-replay blame`.
  static func blame(
    _ json: JSONValue, id: JSONValue, targets: [ReplayTarget],
    recording cached: inout LoadedRecording?
  ) -> JSONValue {
    guard let request = HostMessage.read(HostMessage.BlameRequest.self, from: json) else {
      return error(id: id, problem: "badRequest", "a blame request needs \"trace\" and \"step\"")
    }
    let (path, step) = (request.trace, request.step)
    let recording: LoadedRecording
    do throws(ReplayError) {
      recording = try LoadedRecording.load(path, cached: cached)
    } catch {
      return self.error(id: id, problem: problem(error), error.description)
    }
    cached = recording
    let target: ReplayTarget
    switch self.target(for: recording.header, of: path, among: targets, id: id) {
    case let .success(found): target = found
    case let .failure(refusal): return refusal.message
    }
    CrashSite.begin(request: id)
    defer { CrashSite.end() }
    do {
      let blame = try target.blame(step: step, in: recording)
      return try JSONValueEncoder().encode(HostMessage.Blame(id: id, blame: blame))
    } catch let failure as HistoryRequestError {
      return error(id: id, problem: "badRequest", failure.description)
    } catch {
      return self.error(id: id, problem: "badRequest", "\(path): \(error)")
    }
  }

  /// The reducer a trace records, by its types, else by its name; else the `noReducer` error.
  private static func target(
    for header: TraceHeader, of path: String, among targets: [ReplayTarget], id: JSONValue
  ) -> Result<ReplayTarget, Refusal> {
    if let target = targets.first(where: { $0.matches(header) })
      ?? targets.first(where: { $0.reducer == header.reducer })
    {
      return .success(target)
    }
    let served = targets.map(\.reducer).joined(separator: ", ")
    return .failure(
      Refusal(
        message: error(
          id: id, problem: "noReducer",
          "\(path): the trace records \(header.reducer) (\(header.stateType)); this host serves "
            + (served.isEmpty ? "no reducers" : served))))
  }

  /// An error message to answer with.
  private struct Refusal: Error {
    var message: JSONValue
  }

  private static func problem(_ error: ReplayError) -> String {
    error.trace.kind == .missing ? "missingTrace" : "malformedTrace"
  }
}

/// Lines in and out over file descriptors, for the host's side of the protocol.
// unchecked: the descriptors are lets, and `buffer` is touched only under `lock`
final class HostConnection: @unchecked Sendable {
  private let input: Int32
  private let output: Int32
  private var buffer: [UInt8] = []
  private let lock = Lock()

  init(input: Int32, output: Int32) {
    self.input = input
    self.output = output
  }

  /// Writes `message` as one line, whole.
  func send(_ message: JSONValue) {
    var bytes = message.jsonBytes
    bytes.append(UInt8(ascii: "\n"))
    lock.withLock {
      bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let written = write(output, raw.baseAddress! + offset, raw.count - offset)
          if written < 0, errno == EINTR { continue }
          if written <= 0 { exit(0) }  // tca-replay went away: nothing left to serve.
          offset += written
        }
      }
    }
  }

  /// The next line of input, without its newline; `nil` at the end of input.
  func readLine() -> [UInt8]? {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        guard !buffer.isEmpty else { return nil }
        defer { buffer.removeAll() }
        return buffer
      }
      buffer.append(contentsOf: chunk[..<count])
    }
  }
}

/// Says yes at most once per interval.
// unchecked: `last` is read and written only under `lock`
final class Throttle: @unchecked Sendable {
  private let lock = Lock()
  private let clock = ContinuousClock()
  private let interval: Duration
  private var last: ContinuousClock.Instant

  init(interval: Duration) {
    self.interval = interval
    last = clock.now
  }

  func isDue() -> Bool {
    let now = clock.now
    return lock.withLock {
      guard now - last >= interval else { return false }
      last = now
      return true
    }
  }
}
