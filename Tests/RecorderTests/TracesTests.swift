import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// Checks the sample traces committed in `Traces/` against the rules of
/// `Documentation/TraceFormat.md`, reading them with `TraceReader` as a tool would.
@Suite("Committed traces")
struct TracesTests {
  /// The package root: this file is `<root>/Tests/RecorderTests/TracesTests.swift`.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let tracesDirectory = packageRoot.appendingPathComponent("Traces")

  /// Every `*.ndjson` file in `Traces/`, by name, sorted.
  static let files: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: tracesDirectory.path)) ?? []
    return names.filter { $0.hasSuffix(".ndjson") }.sorted()
  }()

  /// A trace read whole, with the states its patches rebuild.
  struct Trace {
    var header: TraceHeader
    var records: [TraceRecord]
    var steps: [TraceStep]
    var warning: String?
  }

  static func read(_ file: String) throws -> Trace {
    let reader = try TraceReader(path: tracesDirectory.appendingPathComponent(file).path)
    var records: [TraceRecord] = []
    while let record = try reader.next() { records.append(record) }
    guard case let .header(header) = records.first else {
      throw TraceFormatError("\(file): the first record is not a header")
    }
    let steps = records.compactMap { record -> TraceStep? in
      if case let .step(step) = record { step } else { nil }
    }
    return Trace(header: header, records: records, steps: steps, warning: reader.warning)
  }

  /// The state before every step and after the last one: `states[i]` is the state before step
  /// `i`, `states[i + 1]` the state after it.
  static func forwardStates(_ trace: Trace) throws -> [JSONValue] {
    var state = trace.header.initialState
    var states = [state]
    for step in trace.steps {
      state = try step.patch.apply(to: state)
      states.append(state)
    }
    return states
  }

  @Test("Traces/ holds exactly the four sample traces: counter, todos, composed-app and bookshelf")
  func exactlyFourTraces() {
    #expect(
      Self.files == ["bookshelf.ndjson", "composed-app.ndjson", "counter.ndjson", "todos.ndjson"]
    )
  }

  @Test("the trace reads whole, and its first record is a header of a version this build reads", arguments: files)
  func startsWithHeader(file: String) throws {
    let trace = try Self.read(file)
    guard case .header = trace.records.first else {
      Issue.record("\(file): the first record is not a header")
      return
    }
    #expect(trace.header.firstStep == 0)
    #expect(trace.warning == nil, "\(file) ends in an incomplete line")
    // Only the first record is a header.
    let headers = trace.records.filter { if case .header = $0 { true } else { false } }
    #expect(headers.count == 1)
  }

  @Test(
    "the bundled trace is in today's format: re-record Traces/ with `swift run record-traces`",
    arguments: files)
  func isCurrentFormat(file: String) throws {
    #expect(try Self.read(file).header.version == traceFormatVersion)
  }

  @Test("step indices are 0, 1, 2, … with no gaps or repeats", arguments: files)
  func stepIndicesAreContiguous(file: String) throws {
    let trace = try Self.read(file)
    #expect(!trace.steps.isEmpty)
    #expect(trace.steps.map(\.index) == Array(0..<trace.steps.count))
  }

  @Test("patches applied forwards from the initial state rebuild every keyframe's state", arguments: files)
  func forwardsMatchesKeyframes(file: String) throws {
    let trace = try Self.read(file)
    let states = try Self.forwardStates(trace)
    var keyframes = 0
    for case let .keyframe(keyframe) in trace.records {
      keyframes += 1
      try #require(keyframe.index >= 0 && keyframe.index < trace.steps.count)
      #expect(
        keyframe.state == states[keyframe.index + 1],
        "\(file): keyframe \(keyframe.index) differs from the state the patches rebuild"
      )
    }
    // Each sample trace is long enough to hold keyframes: the check above is not vacuous.
    #expect(keyframes > 0)
  }

  @Test("inverted patches applied backwards from the last state give every earlier state, down to the initial state", arguments: files)
  func backwardsRebuildsEveryState(file: String) throws {
    let trace = try Self.read(file)
    let states = try Self.forwardStates(trace)
    var state = try #require(states.last)
    for step in trace.steps.reversed() {
      state = try step.patch.inverted().apply(to: state)
      #expect(state == states[step.index], "\(file): undoing step \(step.index) gives another state")
    }
    #expect(state == trace.header.initialState)
  }

  @Test("the trace ends with an end record whose step count is the number of steps", arguments: files)
  func endsWithEndRecord(file: String) throws {
    let trace = try Self.read(file)
    guard case let .end(end) = trace.records.last else {
      Issue.record("\(file): the last record is not an end record")
      return
    }
    #expect(end.steps == trace.steps.count)
    let ends = trace.records.filter { if case .end = $0 { true } else { false } }
    #expect(ends.count == 1)
  }

  @Test("every step sent by an effect names an earlier, existing step as its cause", arguments: files)
  func effectCausesAreEarlierSteps(file: String) throws {
    let trace = try Self.read(file)
    let indices = Set(trace.steps.map(\.index))
    var effectSteps = 0
    for step in trace.steps {
      guard case let .effect(cause) = step.origin else { continue }
      effectSteps += 1
      // The sample traces are whole, from step 0: every cause was recorded, none is null.
      guard let cause else {
        Issue.record("\(file): step \(step.index) has a null cause")
        continue
      }
      #expect(cause < step.index, "\(file): step \(step.index) is caused by step \(cause)")
      #expect(indices.contains(cause), "\(file): step \(step.index) names missing step \(cause)")
    }
    #expect(effectSteps > 0)
  }

  @Test("every effect that finished or was cancelled started earlier, from the same step", arguments: files)
  func effectsEndAfterStarting(file: String) throws {
    let trace = try Self.read(file)
    var started: [Int: Int] = [:]  // effect number: step
    var ended: Set<Int> = []
    func start(_ effect: Int, step: Int) {
      #expect(started[effect] == nil, "\(file): effect \(effect) started twice")
      started[effect] = step
    }
    for record in trace.records {
      switch record {
      case let .step(step):
        for effect in step.effects { start(effect, step: step.index) }
      case let .effect(event) where event.event == .started:
        start(event.effect, step: event.step)
      case let .effect(event):
        guard let step = started[event.effect] else {
          Issue.record("\(file): effect \(event.effect) \(event.event) before it started")
          continue
        }
        #expect(step == event.step, "\(file): effect \(event.effect) changed step")
        #expect(!ended.contains(event.effect), "\(file): effect \(event.effect) ended twice")
        ended.insert(event.effect)
      default:
        continue
      }
    }
    #expect(!started.isEmpty)
    #expect(!ended.isEmpty)
  }
}
