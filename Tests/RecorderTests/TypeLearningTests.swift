import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// A panel that shows one of two things at the same place in its state.
private struct Panel: Reducer {
  struct State: Codable, Equatable {
    var shown: Shown?
  }
  enum Shown: Codable, Equatable {
    case form(name: String)
    case notice(String)
  }
  enum Action: Codable, Equatable { case showForm, showNotice, hide }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .showForm: state.shown = .form(name: "a")
    case .showNotice: state.shown = .notice("b")
    case .hide: state.shown = nil
    }
    return .none
  }
}

@MainActor
@Suite("Types learned while recording")
struct TypeLearningTests {
  @Test("a second enum case appearing where another was first seen, after nil, is learned too")
  func secondCaseAtKnownPath() async throws {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer), options: .init(keyframeInterval: 0))
    let store = Store(initialState: Panel.State()) { Panel().recording(to: recorder) }
    // As a sheet is presented, dismissed, and an alert takes its place.
    store.send(.showForm)
    store.send(.hide)
    store.send(.showNotice)
    try recorder.close()
    var schema = TypeSchema()
    for line in buffer.lines {
      switch try #require(try TraceRecord(json: JSONValue(parsing: line))) {
      case .header(let header): schema.merge(header.types)
      case .step(let step): schema.merge(step.types)
      default: break
      }
    }
    guard case .enumeration(let cases)? = schema.description(of: String(reflecting: Panel.Shown.self))
    else {
      Issue.record("the enum was not described")
      return
    }
    #expect(Set(cases.map(\.name)) == ["form", "notice"])
  }
}
