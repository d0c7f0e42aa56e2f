import Architecture
import Foundation
import Recorder
import Testing
import TraceJSON

/// A step's `clock` comes from the `continuousClock` override alone (the recorder reads the
/// override as stored, without a full dependency read): a test or immediate clock's time, and
/// nothing for the default clock or any other override.
@Suite struct RecordingClockTimeTests {
  /// The `clock` member of each step recorded while `reduce` ran `count` actions.
  private func clocks(
    steps count: Int, _ dependencies: (inout DependencyValues) -> Void = { _ in }
  ) throws -> [Double?] {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(
      sink: .memory(buffer), options: .init(keyframeInterval: 0, recordsCrashes: false))
    let reducer = Reduce<[String: Int], String> { state, action in
      state[action, default: 0] += 1
      return .none
    }.recording(to: recorder)
    var state: [String: Int] = [:]
    withDependencies(dependencies) {
      for index in 0..<count { _ = reducer.reduce(into: &state, action: "k\(index % 3)") }
    }
    try recorder.close()
    return try buffer.lines.compactMap { line -> Double?? in
      guard case .step(let step) = try TraceRecord(json: JSONValue(parsing: line)) else {
        return nil
      }
      return .some(step.clock)
    }
  }

  @Test("without an override, steps carry no clock time")
  func defaultClock() throws {
    #expect(try clocks(steps: 3) == [nil, nil, nil])
  }

  @Test("a test clock's offset, as it advances, is each step's clock time")
  func testClock() async throws {
    let clock = TestClock()
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(
      sink: .memory(buffer), options: .init(keyframeInterval: 0, recordsCrashes: false))
    let reducer = Reduce<Int, Int> { state, action in
      state += action
      return .none
    }.recording(to: recorder)
    var state = 0
    withDependencies { $0.continuousClock = clock } operation: {
      _ = reducer.reduce(into: &state, action: 1)
    }
    await clock.advance(by: .milliseconds(1_500))
    withDependencies { $0.continuousClock = clock } operation: {
      _ = reducer.reduce(into: &state, action: 2)
    }
    try recorder.close()
    let clocks = try buffer.lines.compactMap { line -> Double?? in
      guard case .step(let step) = try TraceRecord(json: JSONValue(parsing: line)) else {
        return nil
      }
      return .some(step.clock)
    }
    #expect(clocks == [0, 1.5])
  }

  @Test("an immediate clock's time is recorded; a live clock set as an override is not")
  func immediateAndLiveOverrides() throws {
    #expect(try clocks(steps: 2) { $0.continuousClock = ImmediateClock() } == [0, 0])
    #expect(try clocks(steps: 2) { $0.continuousClock = ContinuousClock() } == [nil, nil])
  }
}
