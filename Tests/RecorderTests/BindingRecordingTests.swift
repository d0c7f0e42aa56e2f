import Architecture
import Foundation
import Testing

@testable import Recorder

/// A form with bindable fields; `count` counts changes to `name`, so that a replay that does
/// not match `case .binding(\.$name)` diverges.
private struct Form: Reducer {
  struct State: Codable, Equatable {
    @BindingState var name = ""
    @BindingState var isOn = false
    var count = 0
  }
  enum Action: BindableAction, Codable, Equatable {
    case binding(BindingAction<State>)
  }

  var countsNames = true

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.$name):
        if countsNames { state.count += 1 }
        return .none
      case .binding:
        return .none
      }
    }
  }
}

@MainActor
@Suite("Recording bindings")
struct BindingRecordingTests {
  @Test("binding actions are recorded by field name and replay through the reducer")
  func recordAndReplay() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("bindings-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = TraceRecorder(sink: try .file(atPath: path))
    let store = Store(initialState: Form.State()) { Form().recording(to: recorder) }
    store.send(.set(\.$name, "Blob"))
    store.send(.binding(.set(\.$isOn, true)))
    store.send(.set(\.$name, "Blobby"))
    try recorder.close()

    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#"{"set":{"keyPath":"$name","value":"Blob"}}"#))
    #expect(text.contains(#"{"set":{"keyPath":"$isOn","value":true}}"#))

    let report = try Replayer(reducer: Form()).replay(tracePath: path)
    #expect(report.replayed == 3)
    #expect(report.matches)
    let broken = try Replayer(reducer: Form(countsNames: false)).replay(tracePath: path)
    #expect(broken.firstDivergence?.step == 0)
  }
}
