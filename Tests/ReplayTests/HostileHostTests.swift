import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Replay hosts that misbehave on purpose, behind a wrapper script as `swift run` puts them.
///
/// Each case ends by its bound (`--timeout`; twice that for a host counting progress up
/// forever, the whole-request bound for a small trace), as its message says, however long a
/// loaded machine takes to get there, with exit 125 and one line saying what went wrong, and
/// leaves no process
/// behind: the wrapper, the host it runs and every process the host started are gone when
/// `tca-replay` is, so `out=$(tca-replay bisect … 2>&1)` returns.
@Suite("Hostile replay hosts")
struct HostileHostTests {
  /// The trace the hosts are asked about; they never read it.
  static let trace = "Traces/counter.ndjson"

  /// What the host script does after its `hello` and the first request.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// Shell commands run after `hello` and `read -r request`; `hang` sleeps in a child.
    var script: String
    /// Lines written with the `hello`, in the same write: they are in the pipe when
    /// `tca-replay` has read the `hello`, however late the shell runs again.
    var prelude: [String] = []
    /// Replaces the standard `hello`.
    var hello: String = #"{"kind":"hello","protocol":1,"tool":"hostile","reducers":[]}"#
    /// What standard error ends with, after `Error: the replay host '<command>' `.
    var message: String
    /// The `--timeout`. A case about a timeout has 3 s, time for the host's shells to start and
    /// say hello on a loaded machine; any other has 10 s, which it never waits for.
    var timeout = 10
    var testDescription: String { name }
  }

  static let violations: [Case] = [
    Case(
      name: "a crash outside any step (the host's own code, not the reducer's)",
      script: #"printf '%s\n' '{"kind":"crash","id":1,"signal":4}'; echo 'Fatal error: in the host' >&2; "#
        + "kill -ILL $$",
      message: "crashed outside any step, of signal 4 (SIGILL: a Swift runtime trap), while "
        + "tca-replay waited for its report on \(trace): Fatal error: in the host"
    ),
    Case(
      name: "a wrapper whose child hangs and ignores SIGTERM",
      script: "trap '' TERM; hang",
      message: "said nothing for 3 s while tca-replay waited for its report on \(trace); "
        + "stopped it (raise --timeout if the host is just slow)",
      timeout: 3
    ),
    // The floods start with the hello: on a loaded machine the shell may not run again
    // within the timeout (the `sleep 4` plays that), and then it would have said nothing
    // rather than made no progress.
    Case(
      name: "a flood of progress that reports no new steps",
      script: #"sleep 4; while :; do printf '%s\n' '{"kind":"progress","id":1,"steps":3}'; done"#,
      prelude: Array(repeating: #"{"kind":"progress","id":1,"steps":3}"#, count: 8),
      message: "made no progress for 3 s while tca-replay waited for its report on \(trace); "
        + "stopped it (raise --timeout if the host is just slow)",
      timeout: 3
    ),
    Case(
      name: "a flood of unknown kinds carrying the request's id",
      script: #"sleep 4; while :; do printf '%s\n' '{"kind":"thinking","id":1}'; done"#,
      prelude: Array(repeating: #"{"kind":"thinking","id":1}"#, count: 8),
      message: "made no progress for 3 s while tca-replay waited for its report on \(trace); "
        + "stopped it (raise --timeout if the host is just slow)",
      timeout: 3
    ),
    Case(
      name: "progress that counts up forever",
      // Fifty a second: steady progress, without six seconds of a flood's CPU.
      script: "i=0; while :; do i=$((i+1)); "
        + #"printf '{"kind":"progress","id":1,"steps":%d}\n' $i; sleep 0.02; done"#,
      message: "took longer than 6.19 s over its report on \(trace) (the limit is twice "
        + "--timeout, plus --timeout per MiB of trace); stopped it (raise --timeout if the host "
        + "is just slow)",
      timeout: 3
    ),
    Case(
      name: "protocol version -1",
      script: "hang",
      hello: #"{"kind":"hello","protocol":-1,"tool":"hostile","reducers":[]}"#,
      message: "announces replay host protocol version -1, which does not exist: this tool "
        + "speaks versions 1 to 3"
    ),
    Case(
      name: "an error carrying another request's id",
      script: #"printf '%s\n' '{"kind":"error","id":7,"problem":"noReducer","message":"no"}'"#
        + "; hang",
      message: "does not speak the replay host protocol: expected an answer to request 1, got "
        + #""{"kind":"error","id":7,"problem":"noReducer","message":"no"}""#
    ),
    Case(
      name: "a line longer than the limit",
      // 64 MiB and a byte of NULs, with no newline, may take a while through a busy machine.
      script: "head -c 67108865 /dev/zero; hang",
      message: "wrote a line longer than 64 MiB while tca-replay waited for its report on "
        + "\(trace); stopped it",
      timeout: 20
    ),
  ]

  @Test(
    "a protocol violation ends by its bound, exit 125, nothing left",
    arguments: violations
  )
  func violation(_ hostile: Case) async throws {
    let host = try HostileHost(hostile)
    defer { host.remove() }
    let run = try await HostileRun.tool(
      ["verify", Self.trace, "--host", host.command, "--timeout", "\(hostile.timeout)"],
      host: host
    )
    #expect(!run.hung, "tca-replay or a process holding its output was still running after 300 s")
    #expect(run.status == 125, "\(run.errors)")
    // The host's own complaints on standard error (a shell's "printf: I/O error") may come
    // first; tca-replay's one line is the last, and the only error.
    let expected = "Error: the replay host '\(host.command)' \(hostile.message)\n"
    // A host that wrote on its standard error has it kept in a log, named at the end.
    let errors = run.errors.replacing(#/; its output is in /\S+\n$/#, with: "\n")
    if let named = run.errors.firstMatch(of: #/; its output is in (/\S+)\n$/#) {
      try? FileManager.default.removeItem(atPath: String(named.1))
    }
    #expect(errors.hasSuffix(expected), "\(run.errors)")
    #expect(run.errors.components(separatedBy: "Error: ").count == 2, "\(run.errors)")
    #expect(host.survivorsOnceKilled() == [], "processes of the host still alive")
  }

  @Test("a host slow to leave on bye is stopped; the verdict stands and nothing is left")
  func slowBye() async throws {
    let report = #"{"trace":"x","reducer":"R","mode":"isolated","steps":2,"replayed":2,"#
      + #""divergentSteps":0,"divergences":[],"notReplayable":[],"unknown":0,"warnings":[]}"#
    let host = try HostileHost(
      Case(
        name: "slow bye",
        script: #"printf '%s\n' '{"kind":"report","id":1,"report":\#(report)}'; "#
          + "read -r bye; trap '' TERM; hang",
        message: ""
      )
    )
    defer { host.remove() }
    let run = try await HostileRun.tool(
      // 3 s, time for the hello on a loaded machine; the grace after bye is 2 s of it.
      ["bisect", Self.trace, "--host", host.command, "--timeout", "3"], host: host
    )
    #expect(!run.hung, "tca-replay or a process holding its output was still running after 300 s")
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output == "x: no divergence (isolated replay of 2 steps, 2 replayed)\n")
    #expect(
      run.errors == "warning: the replay host '\(host.command)' did not exit within 2 s of bye; "
        + "stopped it\n"
    )
    #expect(host.survivorsOnceKilled() == [], "processes of the host still alive")
  }

  @Test(
    "SIGINT or SIGTERM to tca-replay stops the host's whole group before it dies of the signal",
    arguments: [SIGINT, SIGTERM]
  )
  func signalled(_ signal: Int32) async throws {
    let host = try HostileHost(
      Case(name: "hangs", script: "trap '' TERM INT; hang", message: "")
    )
    defer { host.remove() }
    let run = try await HostileRun.tool(
      ["verify", Self.trace, "--host", host.command, "--timeout", "30"], host: host,
      signal: signal
    )
    #expect(!run.hung, "tca-replay or a process holding its output was still running after 300 s")
    #expect(run.signalled == signal)
    #expect(host.survivorsOnceKilled() == [], "processes of the host still alive")
  }
}

extension HostileHostTests {
  @Test("SIGTERM to verify --jobs 2 stops both hosts' groups, not only the last one started")
  func signalledJobs() async throws {
    let host = try HostileHost(
      Case(name: "hangs", script: "trap '' TERM INT; hang", message: "")
    )
    defer { host.remove() }
    let run = try await HostileRun.tool(
      ["verify", Self.trace, "Traces/todos.ndjson", "--host", host.command, "--jobs", "2",
       "--timeout", "30"],
      host: host, signal: SIGTERM, hosts: 2
    )
    #expect(!run.hung, "tca-replay or a process holding its output was still running after 300 s")
    #expect(run.signalled == SIGTERM)
    #expect(host.pids.count == 6)
    #expect(host.survivorsOnceKilled() == [], "processes of a host still alive")
  }
}

/// A hostile host: `sh wrapper.sh`, which runs `sh host.sh` as a child (no `exec`), in a folder
/// of its own where every process writes its pid, one a line, to `pids`.
struct HostileHost {
  let folder: URL
  var command: String { "sh \(folder.appendingPathComponent("wrapper.sh").path)" }

  init(_ hostile: HostileHostTests.Case) throws {
    folder = Scratch.url("hostile-host")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let pids = folder.appendingPathComponent("pids").path
    try """
    echo $$ >> '\(pids)'
    sh '\(folder.appendingPathComponent("host.sh").path)'
    """.write(to: folder.appendingPathComponent("wrapper.sh"), atomically: true, encoding: .utf8)
    try """
    echo $$ >> '\(pids)'
    hang() { sleep 1000 & echo $! >> '\(pids)'; wait; }
    cat <<'LINES'
    \(([hostile.hello] + hostile.prelude).joined(separator: "\n"))
    LINES
    read -r request
    \(hostile.script)
    """.write(to: folder.appendingPathComponent("host.sh"), atomically: true, encoding: .utf8)
  }

  /// The pids the host's processes wrote.
  var pids: [pid_t] {
    let text = (try? String(contentsOf: folder.appendingPathComponent("pids"), encoding: .utf8))
    return (text ?? "").split(separator: "\n").compactMap { pid_t($0) }
  }

  /// The host's processes still alive, by pid, and every living process in the wrapper's group.
  /// A zombie is dead: this container's init does not reap orphans.
  func survivors() -> [pid_t] {
    let group = pids.first ?? -1
    var alive = Set(pids.filter(Self.isAlive))
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
      guard let pid = pid_t(entry), let stat = Self.stat(pid), stat.state != "Z" else { continue }
      if stat.group == group { alive.insert(pid) }
    }
    return alive.sorted()
  }

  /// The survivors once those killed have had time to die: a SIGKILL takes effect when the
  /// kernel next runs the process, so this waits, up to a minute, for the list to empty.
  func survivorsOnceKilled() -> [pid_t] {
    let deadline = Date().addingTimeInterval(60)
    var left = survivors()
    while !left.isEmpty, Date() < deadline {
      usleep(10_000)
      left = survivors()
    }
    return left
  }

  /// Kills whatever is left, so a failing test does not leave sleepers behind, and removes the
  /// folder.
  func remove() {
    for pid in pids { kill(pid, SIGKILL) }
    try? FileManager.default.removeItem(at: folder)
  }

  static func isAlive(_ pid: pid_t) -> Bool {
    guard let stat = stat(pid) else { return false }
    return stat.state != "Z"
  }

  /// The state letter and process group of `pid`, from `/proc/<pid>/stat`.
  static func stat(_ pid: pid_t) -> (state: Character, group: pid_t)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 3, let state = fields[0].first, let group = pid_t(fields[2]) else {
      return nil
    }
    return (state, group)
  }
}

/// `tca-replay` run as `out=$(tca-replay … 2>&1)` runs it: it has ended when it has exited and
/// both its output pipes are closed, by it and by everything that inherited them.
struct HostileRun {
  var status: Int32 = 0
  /// The signal that ended the tool, if one did.
  var signalled: Int32?
  var output = ""
  var errors = ""
  /// From the start to the end of the tool and of its pipes.
  var seconds = 0.0
  /// Whether something still held the pipes after 30 s (then everything was killed).
  var hung = false

  /// Runs `tca-replay` with `arguments`; with `signal`, sends it once the host has started all
  /// of its processes.
  /// `hosts`: how many hosts run at once (`verify --jobs`) before the signal.
  static func tool(
    _ arguments: [String], host: HostileHost, signal: Int32? = nil, hosts: Int = 1
  ) async throws -> HostileRun {
    try await offPool { try HostileRun(arguments, host: host, signal: signal, hosts: hosts) }
  }

  private init(_ arguments: [String], host: HostileHost, signal: Int32?, hosts: Int) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.executable("tca-replay"))
    process.arguments = arguments
    process.currentDirectoryURL = Paths.freshRoot
    process.environment = Scratch.environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let started = Date()
    try process.run()
    let done = DispatchGroup()
    let outputData = Collected()
    let errorData = Collected()
    for (pipe, data) in [(output, outputData), (errors, errorData)] {
      done.enter()
      Thread {
        data.set(pipe.fileHandleForReading.readDataToEndOfFile())
        done.leave()
      }.start()
    }
    if let signal {
      // The wrapper, the host and its sleeper have each written their pid, for every host.
      let deadline = Date().addingTimeInterval(300)
      while host.pids.count < 3 * hosts, Date() < deadline { usleep(10_000) }
      usleep(200_000)
      kill(process.processIdentifier, signal)
    }
    // A safety net for a tool that never ends, not a bound on how long it takes: which bound
    // stopped the host is in its message, and a loaded machine may take any time to get there.
    if done.wait(timeout: .now() + 300) == .timedOut {
      hung = true
      kill(process.processIdentifier, SIGKILL)
      for pid in host.pids { kill(pid, SIGKILL) }
      _ = done.wait(timeout: .now() + 10)
    }
    process.waitUntilExit()
    seconds = Date().timeIntervalSince(started)
    if process.terminationReason == .uncaughtSignal {
      signalled = process.terminationStatus
    } else {
      status = process.terminationStatus
    }
    self.output = String(decoding: outputData.value, as: UTF8.self)
    self.errors = String(decoding: errorData.value, as: UTF8.self)
  }
}

private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  var value: Data { lock.withLock { data } }
  func set(_ value: Data) { lock.withLock { data = value } }
}
