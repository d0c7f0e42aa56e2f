import Architecture
import Foundation
import Synchronization
import Testing

@testable import Recorder

/// Replay reads once, on the scan's threads, what it used to read twice or on one thread: a
/// trace that a crash cut mid-line, and a rotated set, each segment cut into runs. The app is a
/// pottery kiln's controller, written as a TCA user would (no `Codable`), recorded here by
/// today's code; the reducer that replays it drifts on one action, to give divergences.
@Suite("Replay of torn and rotated traces on the scan")
struct SegmentedScanReplayTests {
  struct Kiln: Reducer {
    /// Replays `.heldAt` one degree off: a divergence at every hold.
    var drifts = false

    struct Segment {
      var target: Int
      var rampPerHour: Int
    }

    struct State {
      var temperature = 20
      var schedule: [Segment] = []
      var cone: String?
      var lidOpen = false
    }

    enum Action {
      case segmentAdded(target: Int, rampPerHour: Int)
      case thermocoupleRead(Int)
      case heldAt(Int)
      case coneChosen(String?)
      case lidToggled
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .segmentAdded(let target, let ramp):
        state.schedule.append(Segment(target: target, rampPerHour: ramp))
      case .thermocoupleRead(let degrees): state.temperature = degrees
      case .heldAt(let degrees): state.temperature = drifts ? degrees + 1 : degrees
      case .coneChosen(let cone): state.cone = cone
      case .lidToggled: state.lidOpen.toggle()
      }
      return .none
    }
  }

  /// A firing of `steps` actions, a hold every seventh.
  static func actions(_ steps: Int) -> [Kiln.Action] {
    (0..<steps).map { step in
      switch step % 7 {
      case 0: .segmentAdded(target: 600 + step, rampPerHour: 100 + step % 50)
      case 1, 2, 4: .thermocoupleRead(20 + step * 3)
      case 3: .heldAt(20 + step * 3)
      case 5: .coneChosen(step % 2 == 0 ? "06" : nil)
      default: .lidToggled
      }
    }
  }

  /// Records `steps` steps to a fresh `kiln.ndjson`, rotated as `limit` says.
  static func record(_ steps: Int, limit: TraceRecorder.SizeLimit? = nil) throws -> String {
    let directory = Paths.temporary("kiln")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/kiln.ndjson"
    let recorder = try TraceRecorder(
      path: path, options: .init(keyframeInterval: 4, limit: limit))
    let reducer = Reduce(Kiln().recording(to: recorder))
    var state = Kiln.State()
    for action in actions(steps) { _ = reducer.reduce(into: &state, action: action) }
    try recorder.close()
    return path
  }

  /// Removes the folder `record` made for `path`.
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  /// Cuts the newest file's end record short, as a crash mid-write leaves it.
  static func tear(_ path: String) throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    // The newline and the record's last few bytes: the end record, incomplete.
    try bytes.dropLast(10).write(to: URL(fileURLWithPath: path))
  }

  /// Replays `path` in isolation on two threads, runs of about a kilobyte; counts the steps
  /// reduced.
  static func replay(_ path: String, drifts: Bool = true) async throws
    -> (report: ReplayReport, reduced: Int)
  {
    let reduced = Mutex(0)
    var options = Replayer<ReflectingReducer<Kiln>>.Options(
      mode: .isolated, maximumDivergences: 1_000, precedingSteps: 3, workers: 2)
    options.runSize = 1_024
    options.progress = { _ in reduced.withLock { $0 += 1 } }
    let report = try await offPool {
      try Replayer(reducer: ReflectingReducer(base: Kiln(drifts: drifts)), options: options)
        .replay(tracePath: path)
    }
    return (report, reduced.withLock { $0 })
  }

  /// The warning the checked reader gives for the trace at `path`, read whole.
  static func checkedWarning(_ path: String) throws -> String? {
    let reader = try CheckedTraceReader(path: path)
    while try reader.next() != nil {}
    return reader.warning
  }

  @Test("a trace torn mid-line is replayed once, on the scan, with the checked reader's warning")
  func tornTailOnce() async throws {
    let path = try Self.record(120)
    defer { Self.remove(path) }
    try Self.tear(path)
    let warning = try #require(try Self.checkedWarning(path))
    let (report, reduced) = try await Self.replay(path)
    #expect(report.steps == 120)
    // Each step reduced once: not on the scan and then again on one thread.
    #expect(reduced == 120)
    #expect(report.warnings.contains(warning), "\(report.warnings)")
    #expect(report.divergences.map(\.step) == Array(stride(from: 3, to: 120, by: 7)))
  }

  @Test("a rotated set, torn at its end, is read on the scan segment by segment, as one trace")
  func rotatedSetOnScan() async throws {
    let rotated = try Self.record(120, limit: .rotate(maxBytes: 6_000, keep: 100))
    let whole = try Self.record(120)
    defer { for path in [rotated, whole] { Self.remove(path) } }
    let segments = TraceSegments.readingOrder(of: rotated)
    #expect(segments.count >= 3, "\(segments)")
    for path in [rotated, whole] { try Self.tear(path) }
    let warning = try #require(try Self.checkedWarning(rotated))
    // The scan itself: every step, each once, on the threads, and the same warning.
    let seen = Mutex<[Int]>([])
    let (outcome, scanned) = try CheckedTraceReader.Scan.runs(
      path: rotated, threads: 2, runSize: 1_024
    ) { run, _ in
      run.forEachRecord { record, _, _ in
        if case .step(let step) = record { seen.withLock { $0.append(step.index) } }
      }
    }
    #expect(outcome == .complete)
    #expect(scanned == warning)
    #expect(seen.withLock { $0.sorted() } == Array(0..<120))
    // A replay of the set reports what one of the same steps in one file reports, down to the
    // steps listed before each divergence, read back across segment boundaries.
    let (report, reduced) = try await Self.replay(rotated)
    let (expected, _) = try await Self.replay(whole)
    #expect(reduced == 120)
    #expect(report.steps == 120)
    #expect(report.divergences.count == expected.divergences.count)
    for (found, wanted) in zip(report.divergences, expected.divergences) {
      #expect(found.step == wanted.step)
      #expect(found.precedingSteps.map(\.index) == wanted.precedingSteps.map(\.index))
    }
    #expect(report.warnings.contains(warning), "\(report.warnings)")
  }

  @Test(
    "a segment that does not start where the one before ended is refused as summary does",
    arguments: ["a segment lost from the middle", "a header's state edited"])
  func brokenContinuation(damage: String) async throws {
    let rotated = try Self.record(60, limit: .rotate(maxBytes: 4_000, keep: 100))
    defer { Self.remove(rotated) }
    let segments = TraceSegments.readingOrder(of: rotated)
    #expect(segments.count >= 4, "\(segments)")
    // Newest first by name: `kiln.ndjson`, `.1`, `.2`, …; the middle one is damaged.
    let names = [rotated] + (1..<segments.count).map { "\(rotated).\($0)" }
    let middle = names.count / 2
    if damage == "a segment lost from the middle" {
      // The older names move up one, so the set still looks whole.
      try FileManager.default.removeItem(atPath: names[middle])
      for index in (middle + 1)..<names.count {
        try FileManager.default.moveItem(atPath: names[index], toPath: names[index - 1])
      }
    } else {
      // The kiln hotter than the steps before left it.
      var text = try String(contentsOfFile: names[middle], encoding: .utf8)
      let state = try #require(text.range(of: #""initialState":{"temperature":"#))
      text.insert("1", at: state.upperBound)
      try text.write(toFile: names[middle], atomically: false, encoding: .utf8)
    }
    let summary = try #require(CheckedTraceReader.firstProblem(in: rotated))
    #expect(summary.line == 1, "\(summary)")
    let replayed = await #expect(throws: ReplayError.self) {
      _ = try await Self.replay(rotated)
    }
    #expect(replayed?.description == summary.description)
  }
}
