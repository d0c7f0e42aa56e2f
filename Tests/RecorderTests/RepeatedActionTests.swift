import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// A feature whose actions carry text long enough to live on the heap, so that equal actions
/// can be stored apart and different ones can share a layout.
private struct Typing: Reducer {
  struct State: Codable, Equatable {
    var text = ""
    var marks = 0
  }
  enum Action: Codable, Equatable {
    case typed(String)
    case marked
    case scored(Double)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .typed(text): state.text = text
    case .marked: state.marks += 1
    case .scored: state.marks += 2
    }
    return .none
  }
}

@MainActor
@Suite("Repeated actions")
struct RepeatedActionTests {
  /// The recorder keeps the encodings of its last few actions and reuses one for an action
  /// stored alike: every step must still hold its own action. Reusing one for an action merely
  /// `==` to it recorded `.scored(-0.0)` for `.scored(0.0)`, and the precomposed `é` for the
  /// decomposed one.
  @Test("Each step records its own action, whether it repeats one stored alike, stored apart, equal but encoded apart, or differs only in its text")
  func eachStepHoldsItsAction() throws {
    let long = String(repeating: "long text on the heap ", count: 3)
    // Equal texts in separate buffers, texts that differ only at the end, a repeat of the very
    // same value, a case without payload between them, and a NaN (never `==` to itself).
    let actions: [Typing.Action] = [
      .typed(long + "1"), .typed(String(Array(long + "1"))), .typed(long + "2"), .marked,
      .typed(long + "2"), .typed(long + "1"), .marked, .scored(.nan), .scored(.nan),
      .scored(-0.0), .scored(0.0), .typed("short"), .typed("short"), .typed("shorT"),
      // Equal (`==`) but encoded apart: `==` on strings compares canonical Unicode forms,
      // and on doubles takes -0.0 for 0.0.
      .typed("caf\u{E9}"), .typed("cafe\u{301}"), .scored(0.0), .scored(-0.0),
    ]
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer), options: .init())
    let reducer = Typing().recording(to: recorder)
    var state = Typing.State()
    for action in actions { _ = reducer.reduce(into: &state, action: action) }
    try recorder.close()

    let steps = try buffer.lines.compactMap { line -> TraceStep? in
      if case let .step(step) = try TraceRecord(json: JSONValue(parsing: line)) { step } else { nil }
    }
    #expect(steps.count == actions.count)
    for (step, action) in zip(steps, actions) {
      var expected = try JSONValueEncoder().encode(action)
      Redaction.apply([], to: &expected, isState: false)
      #expect(step.action?.jsonBytes == expected.jsonBytes, "step \(step.index)")
      #expect(step.label == ActionLabel.make(from: expected), "step \(step.index)")
    }
  }
}
