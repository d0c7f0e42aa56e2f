import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

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

/// A payment form whose card number is secret.
private struct PaymentForm: Reducer {
  struct State: Codable, Equatable {
    @BindingState var cardNumber = ""
    @BindingState var holder = ""
  }
  enum Action: BindableAction, Codable, Equatable {
    case binding(BindingAction<State>)
  }
  var body: some ReducerOf<Self> { BindingReducer() }
}

@MainActor
@Suite("Redacting bindings")
struct BindingRedactionTests {
  static let secret = "4000123412340000"

  @Test(
    "a binding's value is redacted by the member its key path names",
    arguments: [Redaction.key("cardNumber"), .path("/cardNumber"), .path("/*")])
  func bindingPayloads(rule: Redaction) throws {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer), options: .init(redactions: [rule]))
    let store = Store(initialState: PaymentForm.State()) {
      PaymentForm().recording(to: recorder)
    }
    store.send(.binding(.set(\.$cardNumber, Self.secret)))
    store.send(.set(\.$cardNumber, Self.secret + "9"))
    store.send(.set(\.$holder, "Blob"))
    try recorder.close()

    let text = String(decoding: buffer.data, as: UTF8.self)
    #expect(!text.contains("4000"), "\(rule) leaks: \(text)")
    #expect(text.contains(#"{"set":{"keyPath":"$cardNumber","value":"<redacted>"}}"#))
    if rule != .path("/*") { #expect(text.contains(#""value":"Blob""#)) }
  }

  @Test("a key path through other members is matched at any depth and from any feature")
  func nestedKeyPaths() {
    var action: JSONValue = .object([
      "child": .object(["binding": .object(["set": .object([
        "keyPath": .string("profile.$card"), "value": .object(["number": .string(Self.secret)]),
      ])])])
    ])
    var byKey = action
    Redaction.apply([.key("profile")], to: &byKey, isState: false)
    #expect(!"\(byKey)".contains("4000"))
    // A path rule of the app's state, whose end the child's key path names.
    var byPath = action
    Redaction.apply([.path("/child/profile/card/number")], to: &byPath, isState: false)
    #expect(!"\(byPath)".contains("4000"))
    Redaction.apply([.path("/other")], to: &action, isState: false)
    #expect("\(action)".contains("4000"))
  }
}
