import ExampleSessions
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

@MainActor
@Suite("Example sessions")
struct ExampleSessionTests {
  static func record(_ session: ExampleSession) async throws -> [String] {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer))
    await session.record(to: recorder)
    try recorder.close()
    return buffer.lines
  }

  /// The line with its timestamps removed: the only members that may differ between runs.
  static func withoutTimestamps(_ line: String) throws -> JSONValue {
    guard case var .object(object) = try JSONValue(parsing: line) else { return .null }
    object["time"] = nil
    object["started"] = nil
    return .object(object)
  }

  @Test("recording the same session twice gives identical lines, timestamps aside", arguments: ExampleSession.allCases)
  func deterministic(session: ExampleSession) async throws {
    let first = try await Self.record(session)
    let second = try await Self.record(session)
    #expect(first.count > 100)
    #expect(first.count == second.count)
    for (a, b) in zip(first, second) {
      #expect(try Self.withoutTimestamps(a) == Self.withoutTimestamps(b))
    }
  }

  @Test("every state of a recorded session is reconstructed forwards and backwards, and matches every keyframe", arguments: ExampleSession.allCases)
  func reconstruct(session: ExampleSession) async throws {
    let records = try await Self.record(session).map { line in
      try #require(try TraceRecord(json: JSONValue(parsing: line)))
    }
    guard case let .header(header) = records.first else {
      Issue.record("no header")
      return
    }
    var state = header.initialState
    var states = [state]
    var keyframes = 0
    for record in records.dropFirst() {
      switch record {
      case let .step(step):
        #expect(step.index == states.count - 1)
        state = try step.patch.apply(to: state)
        states.append(state)
      case let .keyframe(keyframe):
        #expect(keyframe.state == states[keyframe.index + 1])
        keyframes += 1
      default:
        break
      }
    }
    // The sample sessions' states are small next to their steps: a keyframe every K steps.
    #expect(keyframes == (states.count - 1) / header.keyframeInterval)
    let steps = records.compactMap { if case let .step(step) = $0 { step } else { nil } }
    for step in steps.reversed() {
      state = try step.patch.inverted().apply(to: state)
      #expect(state == states[step.index])
    }
    #expect(state == header.initialState)
  }
}
