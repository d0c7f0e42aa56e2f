import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

// MARK: - Features used by the edge tests

/// A feature whose action cannot always be encoded: `.failed` carries an error that is not
/// `Encodable`, and the action's `encode(to:)` throws for it.
private struct Uploads: Reducer {
  struct State: Codable, Equatable {
    var uploaded = 0
    var lastError: String?
  }

  struct UploadError: Error, Equatable {
    var reason: String
  }

  enum Action: Encodable, Equatable {
    case upload
    case failed(UploadError)

    /// The encodable cases, encoded as synthesized `Codable` would encode them.
    private enum Encoded: Encodable {
      case upload
    }

    func encode(to encoder: any Encoder) throws {
      switch self {
      case .upload:
        try Encoded.upload.encode(to: encoder)
      case .failed:
        throw EncodingError.invalidValue(
          self,
          EncodingError.Context(
            codingPath: encoder.codingPath, debugDescription: "an UploadError is not encodable"
          )
        )
      }
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .upload:
      state.uploaded += 1
      state.lastError = nil
      return .none
    case let .failed(error):
      state.uploaded -= 1
      state.lastError = error.reason
      return .none
    }
  }
}

/// A feature that reads the date and random numbers while reducing, and again from an effect.
private struct Dice: Reducer {
  struct State: Codable, Equatable {
    var rolls: [UInt64] = []
    var rolledAt: Date?
    var lateRolls: [UInt64] = []
    var lateRolledAt: Date?
  }

  enum Action: Codable, Equatable {
    case roll
    case rollLater
    case rolledLater(at: Date, rolls: [UInt64])
  }

  @Dependency(\.date.now) var now
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .roll:
      // Interleaved, so the tape's order is visible: random, date, random.
      let first = withRandomNumberGenerator { $0.next() }
      state.rolledAt = now
      let second = withRandomNumberGenerator { $0.next() }
      state.rolls = [first, second]
      return .none

    case .rollLater:
      // The effect runs on the main actor, the thread the store reduces on: only the tap's
      // scope keeps these reads out of the trace.
      return .run { @MainActor send in
        @Dependency(\.date.now) var now
        @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
        let rolls = [withRandomNumberGenerator { $0.next() }, withRandomNumberGenerator { $0.next() }]
        send(.rolledLater(at: now, rolls: rolls))
      }

    case let .rolledLater(date, rolls):
      state.lateRolledAt = date
      state.lateRolls = rolls
      return .none
    }
  }
}

/// A small, seeded generator: the same numbers on every run.
private struct SeededNumbers: RandomNumberGenerator, Sendable {
  var state: UInt64
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state ^ (state >> 29)
  }
}

/// A counter, for driving many steps.
private struct Tally: Reducer {
  struct State: Codable, Equatable { var count = 0 }
  enum Action: Codable, Equatable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

// MARK: - Helpers

private func records(in buffer: TraceBuffer) throws -> [TraceRecord] {
  try buffer.lines.map { line in
    try #require(try TraceRecord(json: JSONValue(parsing: line)))
  }
}

private func steps(in records: [TraceRecord]) -> [TraceStep] {
  records.compactMap { if case let .step(step) = $0 { step } else { nil } }
}

// MARK: - Recording edge cases

@MainActor
@Suite("Recorder edge cases")
struct RecorderEdgeTests {
  @Test("an action whose encoding throws is still recorded: null action, its case as label, not replayable, right patch")
  func unencodableAction() async throws {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer))
    let store = Store(initialState: Uploads.State()) {
      Uploads().recording(to: recorder)
    }
    let encoder = JSONValueEncoder()
    var live = [try encoder.encode(store.state)]
    for action in [Uploads.Action.upload, .failed(.init(reason: "offline")), .upload] {
      store.send(action)
      live.append(try encoder.encode(store.state))
    }
    try recorder.close()

    let records = try records(in: buffer)
    let steps = steps(in: records)
    try #require(steps.count == 3)

    // The failing step is recorded: on its line, "action" is present and JSON null, and the
    // label names the case.
    #expect(steps[1].index == 1)
    #expect(steps[1].label == ".failed")
    let line = try #require(buffer.lines.first { $0.contains(#""index":1,"#) })
    guard case let .object(object) = try JSONValue(parsing: line) else {
      Issue.record("the step line is not an object")
      return
    }
    #expect(object["action"] == .null)
    #expect(object["label"] == ".failed")
    // Read back, the step has no action and is not replayable.
    #expect(steps[1].action == nil)
    #expect(!steps[1].isReplayable)

    // The other steps are recorded as usual.
    for step in [steps[0], steps[2]] {
      #expect(step.action == ["upload": [:]])
      #expect(step.label == ".upload")
      #expect(step.isReplayable)
    }

    // Every patch, the failing step's included, takes the state before to the state after.
    #expect(!steps[1].patch.isEmpty)
    for step in steps {
      #expect(try step.patch.apply(to: live[step.index]) == live[step.index + 1])
    }
    guard case let .end(end) = records.last else {
      Issue.record("no end record")
      return
    }
    #expect(end.steps == 3)
  }

  @Test("the date and random numbers a reducer reads are taped, exactly and in read order, in that step only; an effect's reads are not")
  func dependencyTape() async throws {
    let date = Date(timeIntervalSinceReferenceDate: 796_543_210.123_456_7)
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer))
    let store = Store(initialState: Dice.State()) {
      Dice().recording(to: recorder)
    } withDependencies: {
      $0.date = .constant(date)
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(SeededNumbers(state: 42))
    }
    var expected = SeededNumbers(state: 42)
    let numbers = (0..<4).map { _ in expected.next() }

    store.send(.roll)
    await store.send(.rollLater).finish()
    try recorder.close()

    // The effect really read the next numbers and the date, after the reduce.
    #expect(store.state.rolls == [numbers[0], numbers[1]])
    #expect(store.state.lateRolls == [numbers[2], numbers[3]])
    #expect(store.state.lateRolledAt == date)

    let steps = steps(in: try records(in: buffer))
    try #require(steps.count == 3)
    #expect(steps[0].label == ".roll")
    #expect(steps[1].label == ".rollLater")
    #expect(steps[2].label.hasPrefix(".rolledLater("))
    #expect(
      steps[0].dependencies == [
        .random(numbers[0]), .date(date.timeIntervalSinceReferenceDate), .random(numbers[1]),
      ]
    )
    // Nothing the effect read lands in a step: not the one that returned it, nor the one it sent.
    #expect(steps[1].dependencies == [])
    #expect(steps[2].dependencies == [])
    let taped = steps.flatMap(\.dependencies)
    #expect(!taped.contains(.random(numbers[2])))
    #expect(!taped.contains(.random(numbers[3])))
  }

  @Test("with a queue of one, 2,000 sends record 2,000 steps, 0 to 1999 without a gap: the app waits rather than losing steps")
  func backPressure() async throws {
    let buffer = TraceBuffer()
    let memory = TraceSink.memory(buffer)
    // A slow sink, so the writer is behind and the one-slot queue is full most of the time.
    let sink = TraceSink(write: { bytes in
      usleep(20)
      try memory.write(bytes)
    })
    let recorder = TraceRecorder(sink: sink, options: .init(queueCapacity: 1))
    let store = Store(initialState: Tally.State()) {
      Tally().recording(to: recorder)
    }
    for _ in 0..<2_000 { store.send(.increment) }
    try recorder.close()
    #expect(store.state.count == 2_000)

    let records = try records(in: buffer)
    let steps = steps(in: records)
    #expect(steps.count == 2_000)
    #expect(steps.map(\.index) == Array(0..<2_000))
    guard case let .header(header) = records.first, case let .end(end) = records.last else {
      Issue.record("no header or no end record")
      return
    }
    #expect(end.steps == 2_000)
    var state = header.initialState
    for step in steps { state = try step.patch.apply(to: state) }
    #expect(state == ["count": 2_000])
  }

  @Test("after close, sends and effects are not recorded, nothing crashes, and the end record stays the last line")
  func sendsAfterClose() async throws {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(sink: .memory(buffer))
    let store = Store(initialState: Notes.State()) {
      Notes().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(.bump)
    store.send(.bump)
    // Its effect sends `.loaded(7)` only once the test yields the main actor: after closing.
    let loading = store.send(.load)
    try recorder.close()
    let closed = buffer.lines
    let closedRecords = try records(in: buffer)
    #expect(steps(in: closedRecords).map(\.index) == [0, 1, 2])
    guard case let .end(end) = closedRecords.last else {
      Issue.record("the last line after close is not an end record")
      return
    }
    #expect(end.steps == 3)

    store.send(.bump)
    store.send(.add("after"))
    store.send(.bumpTwice)
    await loading.finish()
    store.send(.bump)
    try recorder.close()  // A second close writes nothing either.

    // The store kept working: .loaded(7), then one more bump.
    #expect(store.state.count == 8)
    #expect(store.state.notes.map(\.text) == ["after"])
    // Not one byte was written after closing; the end record is still the last line.
    #expect(buffer.lines == closed)
  }
}

// MARK: - Reading hostile input

@Suite("Trace reader on hostile input")
struct TraceReaderHostileInputTests {
  /// A file in the temporary directory holding `bytes`, removed by `body`'s end.
  static func withFile<R>(
    _ bytes: [UInt8], _ body: (String) throws -> R
  ) throws -> R {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("hostile-\(UUID().uuidString).ndjson").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
  }

  /// Reads every record of `path`, or returns the error.
  static func readAll(_ path: String) -> Result<[TraceRecord], TraceReadError> {
    do throws(TraceReadError) {
      let reader = try TraceReader(path: path)
      var records: [TraceRecord] = []
      while let record = try reader.next() { records.append(record) }
      return .success(records)
    } catch {
      return .failure(error)
    }
  }

  static func error(reading path: String) throws -> TraceReadError {
    switch readAll(path) {
    case let .success(records):
      Issue.record("read \(records.count) records from a hostile file")
      throw TraceFormatError("no error")
    case let .failure(error):
      return error
    }
  }

  /// The first lines of the committed counter trace: a real header and real steps.
  static func counterLines(_ count: Int) throws -> [String] {
    let path = TracesTests.tracesDirectory.appendingPathComponent("counter.ndjson").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return Array(text.split(separator: "\n").prefix(count).map(String.init))
  }

  @Test("an empty file is refused: \"the trace is empty\", naming the file")
  func emptyFile() throws {
    try Self.withFile([]) { path in
      let error = try Self.error(reading: path)
      #expect(error.kind == .malformed)
      #expect(error.path == path)
      #expect(error.line == nil)
      #expect(error.message == "the trace is empty")
      #expect(error.description == "\(path): the trace is empty")
    }
  }

  @Test("a file without a single newline is refused as having no complete line")
  func noCompleteLine() throws {
    try Self.withFile(Array(repeating: UInt8(ascii: "x"), count: 300)) { path in
      let error = try Self.error(reading: path)
      #expect(error.kind == .malformed)
      #expect(error.description == "\(path): the trace has no complete line: it does not end in a newline")
    }
  }

  @Test("a file whose first line is not a header is refused at line 1")
  func firstLineNotHeader() throws {
    let lines = try Self.counterLines(3)
    try Self.withFile(Array((lines[1...].joined(separator: "\n") + "\n").utf8)) { path in
      let error = try Self.error(reading: path)
      #expect(error.kind == .malformed)
      #expect(error.path == path)
      #expect(error.line == 1)
      #expect(error.message.contains("not a header"))
      #expect(error.description.hasPrefix("\(path):1: "))
    }
  }

  @Test("binary garbage is refused as not JSON at line 1, naming the file")
  func binaryGarbage() throws {
    // A PNG signature and some of an image: a line break at byte 6, invalid UTF-8 throughout.
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var generator = SeededNumbers(state: 7)
    for _ in 0..<512 { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
    try Self.withFile(bytes) { path in
      let error = try Self.error(reading: path)
      #expect(error.kind == .malformed)
      #expect(error.path == path)
      #expect(error.line == 1)
      #expect(error.message.contains("not valid JSON"))
      #expect(error.description.hasPrefix("\(path):1: "))
    }
  }

  @Test("a header of version 99 is refused, naming the version and the newest one this build reads")
  func futureVersion() throws {
    var lines = try Self.counterLines(3)
    // The committed trace's version, which may be older than this build's.
    let current = try #require(lines[0].firstMatch(of: /"version":\d+,/)).output.description
    #expect(lines[0].contains(current))
    lines[0] = lines[0].replacingOccurrences(of: current, with: #""version":99,"#)
    try Self.withFile(Array((lines.joined(separator: "\n") + "\n").utf8)) { path in
      let error = try Self.error(reading: path)
      #expect(error.kind == .malformed)
      #expect(error.path == path)
      #expect(error.line == 1)
      #expect(error.message.contains("unsupported trace format version 99"))
      #expect(error.message.contains("up to \(traceFormatVersion)"))
      #expect(error.description.hasPrefix("\(path):1: "))
    }
  }

  @Test("a truncated last line is dropped: the complete records read, then a warning names the file and line")
  func truncatedLastLine() throws {
    let lines = try Self.counterLines(6)
    let complete = lines.prefix(5).joined(separator: "\n") + "\n"
    let torn = String(lines[5].prefix(lines[5].utf8.count / 2))
    try Self.withFile(Array((complete + torn).utf8)) { path in
      let reader = try TraceReader(path: path)
      var records: [TraceRecord] = []
      while let record = try reader.next() {
        #expect(reader.warning == nil)
        records.append(record)
      }
      let expected = try lines.prefix(5).map { line in
        try #require(try TraceRecord(json: JSONValue(parsing: line)))
      }
      #expect(records == expected)
      let warning = try #require(reader.warning)
      #expect(warning.hasPrefix("\(path):6: "))
      #expect(warning.contains("incomplete"))
      // Reading on after the end stays at the end.
      #expect(try reader.next() == nil)
    }
  }

  @Test("a missing file is reported as missing, naming the file")
  func missingFile() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("missing-\(UUID().uuidString).ndjson").path
    let error = try Self.error(reading: path)
    #expect(error.kind == .missing)
    #expect(error.path == path)
    #expect(error.line == nil)
    #expect(error.description.hasPrefix("\(path): "))
  }
}
