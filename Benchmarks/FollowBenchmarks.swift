import Foundation

/// `log --follow` as the built tools run it (issue 29's targets: p95 at most 100 ms at 1,000
/// actions a second for 10 s, no step lost or repeated; at most 50 MB on a long session).
///
/// Latency is from `send` returning in `record-traces` (which writes `<index> <CLOCK_MONOTONIC
/// ns>` as each returns) to the step's line arriving on the follower's pipe, stamped on the same
/// clock. The baseline follows the same recording in the same run: `tail -F`, which reads the
/// file's new lines as inotify reports them, so it measures what the recorder's write costs.
@MainActor
func followBenchmarks(_ harness: Harness, rate: Int, seconds: Int, longSteps: Int) -> [Table] {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let tool = folder.appendingPathComponent("tca-replay").path
  let recorder = folder.appendingPathComponent("record-traces").path
  for binary in [tool, recorder] where !FileManager.default.isExecutableFile(atPath: binary) {
    print("warning: \(binary) is missing: `swift build -c release` first")
  }
  let steps = rate * seconds
  var table = Table(
    title: "log --follow, send → line printed, \(steps) steps at \(rate)/s, "
      + "\(harness.runs) runs, load \(loadAverage())")
  var follow: [String: [Double]] = [:]
  var tail: [String: [Double]] = [:]
  var intact = true
  for _ in 0..<harness.runs {
    let run = followRun(tool: tool, recorder: recorder, steps: steps, rate: rate)
    intact = intact && run.intact
    for (name, value) in run.follow { follow[name, default: []].append(value) }
    for (name, value) in run.tail { tail[name, default: []].append(value) }
  }
  for name in ["p50", "p95", "max"] {
    let baseline = "tail -F \(name) (baseline)"
    table.add(baseline, Harness.Figure(nanosecondsPerOperation: tail[name] ?? []))
    table.add(
      "log --follow \(name)", Harness.Figure(nanosecondsPerOperation: follow[name] ?? []),
      baseline: baseline)
  }
  table.title +=
    " → \(loadAverage()); every step printed once, in order: \(intact ? "yes" : "NO")"

  var memory = Table(title: "log --follow's peak memory, \(longSteps) steps, load \(loadAverage())")
  memory.add(
    "peak RSS (VmHWM)",
    Harness.Figure(nanosecondsPerOperation: (0..<harness.runs).map { _ in
      Double(followPeakMemory(tool: tool, recorder: recorder, steps: longSteps))
    }), unit: .bytes)
  return [table, memory]
}

/// One recording followed by `log --follow` and `tail -F`: each one's p50, p95 and worst
/// latency in nanoseconds, and whether the follower printed every step once, in order.
private func followRun(tool: String, recorder: String, steps: Int, rate: Int)
  -> (follow: [String: Double], tail: [String: Double], intact: Bool)
{
  let work = FileManager.default.temporaryDirectory
    .appendingPathComponent("tca-replay-benchmark-follow-\(UUID().uuidString)").path
  try! FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: work) }
  let trace = work + "/ledger.ndjson"
  let follower = LineReader([tool, "log", trace, "--follow"])
  let tailer = LineReader(["/usr/bin/tail", "-F", "-n", "+1", "-s", "0.01", trace])
  // Both readers wait for a file that does not exist yet, as in `log --follow`'s tests.
  usleep(300_000)
  let recording = LineReader(
    [recorder, "--ledger-rotating", "\(steps)", "1000000", "100", trace, "--rate", "\(rate)",
     "--stamps", work + "/stamps"])
  var readers = [follower, tailer, recording]
  // Until the follower ends at the end record and tail has shown the last step.
  while !(follower.ended && recording.ended && tailer.lastIndex == steps - 1) {
    LineReader.pump(&readers, timeoutMilliseconds: 1_000)
    if recording.ended, follower.ended, tailer.lastSeen + 5 < monotonicNow() / 1_000_000_000 {
      break
    }
  }
  tailer.stop()
  let sent = (try? String(contentsOfFile: work + "/stamps", encoding: .utf8)) ?? ""
  var sentAt: [Int: UInt64] = [:]
  for line in sent.split(separator: "\n") {
    let parts = line.split(separator: " ")
    if parts.count == 2, let index = Int(parts[0]), let time = UInt64(parts[1]) {
      sentAt[index] = time
    }
  }
  let intact = follower.indices == Array(0..<steps)
  return (
    percentiles(follower.arrivals, sentAt), percentiles(tailer.arrivals, sentAt), intact
  )
}

/// p50, p95 and the worst of the latencies of the steps both sent and seen.
private func percentiles(_ seen: [Int: UInt64], _ sent: [Int: UInt64]) -> [String: Double] {
  let latencies = seen.compactMap { index, time in
    sent[index].map { Double(Int64(time) - Int64($0)) }
  }.sorted()
  guard !latencies.isEmpty else { return [:] }
  let at = { (q: Double) in latencies[min(latencies.count - 1, Int(q * Double(latencies.count)))] }
  return ["p50": at(0.5), "p95": at(0.95), "max": latencies.last!]
}

/// The follower's peak resident memory while it follows a recording of `steps` steps made as
/// fast as the recorder goes: its `VmHWM`, read every 10 ms until it ends.
private func followPeakMemory(tool: String, recorder: String, steps: Int) -> Int {
  let work = FileManager.default.temporaryDirectory
    .appendingPathComponent("tca-replay-benchmark-follow-rss-\(UUID().uuidString)").path
  try! FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: work) }
  let trace = work + "/ledger.ndjson"
  let follower = LineReader([tool, "log", trace, "--follow"], keepLines: false)
  usleep(300_000)
  let recording = LineReader(
    [recorder, "--ledger-rotating", "\(steps)", "10000000", "1000", trace])
  var readers = [follower, recording]
  var peak = 0
  while !(follower.ended && recording.ended) {
    if !follower.ended { peak = max(peak, highWaterMark(follower.pid)) }
    LineReader.pump(&readers, timeoutMilliseconds: 10)
  }
  precondition(follower.lastIndex == steps - 1, "the follower stopped at \(follower.lastIndex)")
  return peak
}

/// A process's `VmHWM` in bytes; 0 once it has gone.
private func highWaterMark(_ pid: pid_t) -> Int {
  let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
  return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

private func monotonicNow() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// A child whose standard output is read line by line, each line's step index stamped with the
/// monotonic clock as it arrives.
private final class LineReader {
  let pid: pid_t
  private let descriptor: Int32
  private let keepLines: Bool
  private var pending: [UInt8] = []
  private(set) var ended = false
  /// When each step's line arrived, by step index.
  private(set) var arrivals: [Int: UInt64] = [:]
  /// The step indices in the order they arrived, repeats included.
  private(set) var indices: [Int] = []
  private(set) var lastIndex = -1
  /// When the last line arrived, in seconds.
  private(set) var lastSeen: UInt64 = monotonicNow() / 1_000_000_000

  init(_ arguments: [String], keepLines: Bool = true) {
    self.keepLines = keepLines
    var pipe: [Int32] = [0, 0]
    precondition(Glibc.pipe(&pipe) == 0)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, pipe[0])
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let status = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
    precondition(status == 0, "cannot run \(arguments[0])")
    close(pipe[1])
    self.pid = pid
    descriptor = pipe[0]
  }

  deinit {
    close(descriptor)
  }

  /// Reads whatever the readers have written within `timeoutMilliseconds`.
  static func pump(_ readers: inout [LineReader], timeoutMilliseconds: Int32) {
    let open = readers.filter { !$0.ended }
    guard !open.isEmpty else { return }
    var fds = open.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    guard poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return }
    for (reader, fd) in zip(open, fds) where fd.revents != 0 { reader.read() }
  }

  private func read() {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
    let now = monotonicNow()
    guard count > 0 else {
      if count == 0 || errno != EINTR { finish() }
      return
    }
    var start = 0
    pending.append(contentsOf: buffer[0..<count])
    while let newline = pending[start...].firstIndex(of: 0x0A) {
      if let index = Self.stepIndex(pending[start..<newline]) {
        if keepLines {
          if arrivals[index] == nil { arrivals[index] = now }
          indices.append(index)
        }
        lastIndex = index
        lastSeen = now / 1_000_000_000
      }
      start = newline + 1
    }
    pending.removeFirst(start)
  }

  /// The step index a line starts with: `log`'s right-aligned number, or a step record's
  /// `"index"` as `tail` shows the file.
  private static func stepIndex(_ line: ArraySlice<UInt8>) -> Int? {
    let text = String(decoding: line.prefix(64), as: UTF8.self)
    if text.hasPrefix(#"{"kind":"step","index":"#) {
      return Int(text.dropFirst(23).prefix { $0.isNumber })
    }
    if text.hasPrefix("{") { return nil }
    return Int(text.prefix(6).trimmingCharacters(in: .whitespaces))
  }

  private func finish() {
    ended = true
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }

  /// Ends a reader that does not end by itself.
  func stop() {
    guard !ended else { return }
    kill(pid, SIGTERM)
    finish()
  }
}
