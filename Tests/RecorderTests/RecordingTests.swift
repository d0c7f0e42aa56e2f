import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// A small feature with every kind of step: plain changes, a `.send` chain, an effect, a
/// dependency read, and a secret.
struct Notes: Reducer {
  struct State: Codable, Equatable {
    var notes: [Note] = []
    var count = 0
    var token = "s3cr3t-t0k3n"
  }
  struct Note: Codable, Equatable, Identifiable {
    var id: UUID
    var text: String
  }
  enum Action: Codable, Equatable {
    case add(String)
    case bump
    case bumpTwice
    case load
    case loaded(Int)
    case login(password: String)
  }

  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(text):
      state.notes.append(Note(id: uuid(), text: text))
      return .none
    case .bump:
      state.count += 1
      return .none
    case .bumpTwice:
      return .merge(.send(.bump), .send(.bump))
    case .load:
      return .run { send in await send(.loaded(7)) }
    case let .loaded(value):
      state.count = value
      return .none
    case .login:
      state.token = "n3w-s3cr3t"
      return .none
    }
  }
}

@MainActor
@Suite("Recording")
struct RecordingTests {
  func record(
    options: TraceRecorder.Options = .init(keyframeInterval: 3),
    _ script: (Store<Notes.State, Notes.Action>) async -> Void
  ) async throws -> (records: [TraceRecord], states: [Notes.State], bytes: [UInt8]) {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer), options: options)
    let store = Store(initialState: Notes.State()) {
      Notes().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    var states = [store.state]
    let observation = store.observe { states.append($0) }
    _ = observation
    await script(store)
    try recorder.close()
    let records = try buffer.lines.map { line in
      try #require(try TraceRecord(json: JSONValue(parsing: line)))
    }
    return (records, states, buffer.data)
  }

  @Test("a header, one step per reduced action, and an end record")
  func recordKinds() async throws {
    let (records, _, _) = try await record(options: .init(keyframeInterval: 0)) { store in
      store.send(.add("milk"))
      store.send(.bumpTwice)
      store.send(.bump)
    }
    let kinds = records.map { record -> String in
      switch record {
      case .header: "header"
      case let .step(step): "step \(step.index)"
      case let .keyframe(keyframe): "keyframe \(keyframe.index)"
      case .effect: "effect"
      case let .gap(gap): "gap \(gap.from)…\(gap.to)"
      case let .end(end): "end \(end.steps)"
      case .crash: "crash"
      }
    }
    #expect(kinds == ["header", "step 0", "step 1", "step 2", "step 3", "step 4", "end 5"])
  }

  @Test("a keyframe follows every Kth step once the trace has grown by keyframeSpacing full states")
  func keyframeSpacing() async throws {
    let (records, _, bytes) = try await record(options: .init(keyframeInterval: 3)) { store in
      for index in 0..<150 { store.send(index.isMultiple(of: 10) ? .add("note \(index)") : .bump) }
    }
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .dropLast()
    #expect(lines.count == records.count)
    let spacing = RecordingSession<Notes.State, Notes.Action>.keyframeSpacing
    var fullState = lines[0].count + 1  // The header's bytes stand for its initial state.
    var grown = 0
    var keyframes = 0
    let rest = Array(zip(records, lines).dropFirst())
    for (position, (record, line)) in rest.enumerated() {
      switch record {
      case let .keyframe(keyframe):
        keyframes += 1
        fullState = line.count + 1
        grown = 0
        #expect((keyframe.index + 1).isMultiple(of: 3), "keyframe after step \(keyframe.index)")
      case let .step(step):
        grown += line.count + 1
        guard (step.index + 1).isMultiple(of: 3) else { continue }
        // After every Kth step, a keyframe comes exactly when the trace has grown enough.
        let next = position + 1 < rest.count ? rest[position + 1].0 : nil
        var isKeyframe = false
        if case .keyframe(let keyframe)? = next { isKeyframe = keyframe.index == step.index }
        #expect(isKeyframe == (grown >= spacing * fullState), "after step \(step.index)")
      default:
        grown += line.count + 1
      }
    }
    #expect(keyframes >= 2)
  }

  @Test("each step records its action, label, origin and the uuid the reducer read")
  func stepContents() async throws {
    let (records, _, _) = try await record { store in
      store.send(.add("milk"))
      store.send(.bumpTwice)
    }
    let steps = records.compactMap { if case let .step(step) = $0 { step } else { nil } }
    #expect(steps.map(\.label) == [#".add("milk")"#, ".bumpTwice", ".bump", ".bump"])
    #expect(steps.map(\.origin) == [.send, .send, .effect(cause: 1), .effect(cause: 1)])
    #expect(steps[0].dependencies == [.uuid("00000000-0000-0000-0000-000000000000")])
    #expect(steps[0].action == ["add": ["_0": "milk"]])
    #expect(steps[1].patch.isEmpty)
  }

  @Test("effects are recorded as started and finished, and their actions name the step that caused them")
  func effects() async throws {
    let (records, _, _) = try await record { store in
      await store.send(.load).finish()
    }
    let interesting = records.compactMap { record -> String? in
      switch record {
      case let .step(step):
        "step \(step.index) \(step.label) \(step.origin) starts effects \(step.effects)"
      case let .effect(event): "effect \(event.effect) \(event.event) of step \(event.step)"
      default: nil
      }
    }
    #expect(interesting == [
      "step 0 .load send starts effects [0]",
      "step 1 .loaded(7) effect(cause: Optional(0)) starts effects []",
      "effect 0 finished of step 0",
    ])
  }

  @Test("replaying the patches forwards and backwards gives every state the live store had")
  func reconstruct() async throws {
    let (records, states, _) = try await record(options: .init(keyframeInterval: 2)) { store in
      store.send(.add("milk"))
      store.send(.add("eggs"))
      store.send(.bumpTwice)
      await store.send(.load).finish()
    }
    guard case let .header(header) = records.first else { Issue.record("no header"); return }
    let steps = records.compactMap { if case let .step(step) = $0 { step } else { nil } }
    let encoder = JSONValueEncoder()
    var state = header.initialState
    var forward = [state]
    for step in steps {
      state = try step.patch.apply(to: state)
      forward.append(state)
    }
    // Every keyframe matches the reconstructed state after its step.
    for case let .keyframe(keyframe) in records {
      #expect(keyframe.state == forward[keyframe.index + 1])
    }
    // The store was observed after each batch; each observed state is among the forward states.
    for live in states {
      #expect(forward.contains(try encoder.encode(live)))
    }
    #expect(forward.last == (try encoder.encode(states.last!)))
    // Backwards, with inverted patches, back to the initial state.
    for step in steps.reversed() {
      state = try step.patch.inverted().apply(to: state)
    }
    #expect(state == header.initialState)
  }

  @Test("redacted keys and paths never reach the bytes, and the header lists the rules")
  func redaction() async throws {
    let (records, _, bytes) = try await record(
      options: .init(redactions: [.key("password"), .path("/token")])
    ) { store in
      store.send(.login(password: "hunter2"))
    }
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(!text.contains("hunter2"))
    #expect(!text.contains("s3cr3t"))
    #expect(text.contains("<redacted>"))
    guard case let .header(header) = records.first else { Issue.record("no header"); return }
    #expect(header.redactions == [.key("password"), .path("/token")])
  }

  @Test("a key rule naming an action's case hides its unnamed payload, in the action and label")
  func redactingACase() async throws {
    let (records, _, _) = try await record(options: .init(redactions: [.key("add")])) { store in
      store.send(.add("my diary entry"))
    }
    // The state's copy of the text sits under "text", which no rule names: only the action's
    // payload is hidden.
    let steps = records.compactMap { record -> TraceStep? in
      if case let .step(step) = record { step } else { nil }
    }
    let step = try #require(steps.first)
    #expect(step.action == ["add": Redaction.placeholder])
    #expect(!step.label.contains("my diary entry"), "\(step.label)")
  }

  @Test("a trace file is created readable and writable by its owner only")
  func fileMode() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("mode-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path)
    try recorder.close()
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }
}
