import Foundation
import TestSupport
import Testing

@testable import Recorder
@testable import TraceJSON

/// `TraceIndex` and `TraceIndex.Cursor` on the committed traces, checked against states rebuilt by
/// applying every patch in order.
@Suite("Trace index and cursor")
struct TraceIndexTests {
  static func path(_ file: String) -> String {
    TracesTests.tracesDirectory.appendingPathComponent(file).path
  }

  /// The states after each step, rebuilt by a plain sequential read: the reference.
  static func statesInOrder(_ file: String) throws -> (initial: JSONValue, after: [JSONValue]) {
    let trace = try TracesTests.read(file)
    var state = trace.header.initialState
    var states: [JSONValue] = []
    for step in trace.steps {
      state = try step.patch.apply(to: state)
      states.append(state)
    }
    return (trace.header.initialState, states)
  }

  @Test(
    "every step's state, reached from the nearest keyframe, equals the sequential one",
    arguments: TracesTests.files)
  func randomAccess(file: String) throws {
    let reference = try Self.statesInOrder(file)
    let trace = try TraceIndex(path: Self.path(file))
    #expect(trace.stepCount == reference.after.count)
    #expect(!trace.keyframes.isEmpty, "the committed traces have keyframes to start from")
    #expect(try trace.state(afterStep: nil) == reference.initial)
    for index in trace.stepIndices {
      #expect(try trace.state(afterStep: index) == reference.after[index], "step \(index)")
    }
  }

  @Test(
    "walking forwards to the end and back to the start sees the same states",
    arguments: TracesTests.files)
  func forwardsAndBackwards(file: String) throws {
    let reference = try Self.statesInOrder(file)
    var cursor = TraceIndex.Cursor(trace: try TraceIndex(path: Self.path(file)))
    var forwards: [JSONValue] = []
    while try cursor.forward() { forwards.append(cursor.state) }
    #expect(forwards == reference.after)
    #expect(cursor.step == reference.after.count - 1)

    var position = reference.after.count - 1
    while try cursor.backward() {
      position -= 1
      let expected = position >= 0 ? reference.after[position] : reference.initial
      #expect(cursor.state == expected, "back to \(position)")
    }
    #expect(position == -1)
    #expect(cursor.step == nil)
    #expect(cursor.state == reference.initial)
  }

  @Test("move(to:) lands on the same state whether it walks or jumps", arguments: TracesTests.files)
  func moves(file: String) throws {
    let reference = try Self.statesInOrder(file)
    var cursor = TraceIndex.Cursor(trace: try TraceIndex(path: Self.path(file)))
    // Near and far targets in both directions.
    for target in [5, 3, 200, 150, 149, 0, reference.after.count - 1, 10] {
      try cursor.move(to: target)
      #expect(cursor.step == target)
      #expect(cursor.state == reference.after[target], "move to \(target)")
    }
    try cursor.move(to: nil)
    #expect(cursor.state == reference.initial)
  }

  static let watchCases: [(file: String, pointer: String)] = [
    ("counter.ndjson", "/count"),
    ("counter.ndjson", "/isTimerRunning"),
    ("counter.ndjson", "/fact"),
    ("todos.ndjson", "/todos/0/isComplete"),
    ("todos.ndjson", "/todos/2"),
    ("todos.ndjson", "/filter"),
    ("todos.ndjson", ""),
    ("composed-app.ndjson", "/counter/count"),
    ("composed-app.ndjson", "/no/such/path"),
  ]

  @Test(
    "continue and reverse-continue stop where a brute-force scan says the value changed",
    arguments: watchCases)
  func watch(file: String, pointer text: String) throws {
    let pointer = try #require(JSONPointer(text))
    let reference = try Self.statesInOrder(file)
    let states = [reference.initial] + reference.after  // states[p]: after p steps
    // changed[s]: step s changed the value at the pointer.
    let changed = reference.after.indices.map {
      pointer.resolve(in: states[$0]) != pointer.resolve(in: states[$0 + 1])
    }
    let trace = try TraceIndex(path: Self.path(file))
    for start in stride(from: -1, to: reference.after.count, by: 7) {
      let origin: Int? = start < 0 ? nil : start
      var forward = TraceIndex.Cursor(trace: trace)
      try forward.move(to: origin)
      let expectedNext = changed.indices.first { $0 > start && changed[$0] }
      #expect(try forward.continueForward(untilChanged: [pointer]) == (expectedNext != nil))
      #expect(forward.step == (expectedNext ?? origin), "continue from \(start)")
      #expect(forward.state == states[(forward.step ?? -1) + 1])

      var backward = TraceIndex.Cursor(trace: trace)
      try backward.move(to: origin)
      let expectedPrevious = changed.indices.last { $0 < start && changed[$0] }
      #expect(try backward.continueBackward(untilChanged: [pointer]) == (expectedPrevious != nil))
      #expect(backward.step == (expectedPrevious ?? origin), "reverse-continue from \(start)")
      #expect(backward.state == states[(backward.step ?? -1) + 1])
    }
  }
}

/// `TraceIndex` on broken files: each gives an error naming the file and line, or a warning.
@Suite("Trace index on broken input")
struct TraceIndexErrorTests {
  let directory = Scratch.url("trace-index")

  init() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  func write(_ text: String, name: String = "t.ndjson") throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  static let header =
    #"{"kind":"header","version":1,"tool":"t","reducer":"R","stateType":"S","actionType":"A","fingerprint":{"state":"0","action":"0"},"started":"2026-01-01T00:00:00.000Z","keyframeInterval":0,"initialState":{"count":0}}"#

  static func step(_ index: Int, from old: Int, to new: Int, path: String = "/count") -> String {
    #"{"kind":"step","index":\#(index),"time":0.1,"origin":"send","action":{"tap":{}},"label":".tap","patch":[{"op":"test","path":"\#(path)","value":\#(old)},{"op":"replace","path":"\#(path)","value":\#(new)}]}"#
  }

  func expectError(_ text: String, line: Int?, containing fragment: String) throws {
    let path = try write(text)
    let error = #expect(throws: TraceReadError.self) { try TraceIndex(path: path) }
    #expect(error?.path == path)
    #expect(error?.line == line)
    #expect(
      error?.message.contains(fragment) == true, "\(error.map(String.init(describing:)) ?? "")")
  }

  @Test("an empty file") func empty() throws {
    try expectError("", line: nil, containing: "empty")
  }

  @Test("a file with no complete line") func noNewline() throws {
    try expectError(Self.header, line: nil, containing: "no complete line")
  }

  @Test("binary garbage") func garbage() throws {
    try expectError("\u{0}\u{1}PK\u{3}\u{4}\u{FF}\n\n", line: 1, containing: "not valid JSON")
  }

  @Test("a first line that is not a header") func notHeader() throws {
    try expectError(Self.step(0, from: 0, to: 1) + "\n", line: 1, containing: "not a header")
  }

  @Test("an unknown format version") func unknownVersion() throws {
    let header = Self.header.replacingOccurrences(of: #""version":1"#, with: #""version":7"#)
    try expectError(header + "\n", line: 1, containing: "unsupported trace format version 7")
  }

  @Test("version 0 is refused: versions start at 1") func versionZero() throws {
    let header = Self.header.replacingOccurrences(of: #""version":1"#, with: #""version":0"#)
    try expectError(header + "\n", line: 1, containing: "invalid trace format version 0")
  }

  @Test("blank lines at the end are ignored by the index and the reader, whatever their length")
  func trailingBlankLines() throws {
    let spaces = String(repeating: " ", count: 60)  // Longer than the index's look at a line.
    let text = [Self.header, Self.step(0, from: 0, to: 1), Self.step(1, from: 1, to: 2), "", spaces]
    // Spaces after the last newline are not a record cut short either.
    let path = try write(text.joined(separator: "\n") + "\n  \r\n \t")
    let trace = try TraceIndex(path: path)
    #expect(trace.stepCount == 2)
    #expect(trace.warning == nil)
    let reader = try TraceReader(path: path)
    var lines: [Int] = []
    while try reader.next() != nil { lines.append(reader.line) }
    #expect(lines == [1, 2, 3])
    #expect(reader.warning == nil)
  }

  @Test("a blank line before a record is an error naming the blank line", arguments: [0, 5, 60])
  func blankLineInside(spaces: Int) throws {
    let blank = String(repeating: " ", count: spaces)
    for (text, line) in [
      ([Self.header, Self.step(0, from: 0, to: 1), blank, Self.step(1, from: 1, to: 2)], 3),
      ([blank, Self.header, Self.step(0, from: 0, to: 1)], 1),
    ] {
      let path = try write(text.joined(separator: "\n") + "\n")
      try expectError(text.joined(separator: "\n") + "\n", line: line, containing: "blank lines may only end a trace")
      let error = #expect(throws: TraceReadError.self) {
        let reader = try TraceReader(path: path)
        while try reader.next() != nil {}
      }
      #expect(error?.line == line)
      #expect(error?.message == "the line is blank: blank lines may only end a trace")
    }
  }

  @Test("a file of blank lines is an empty trace") func onlyBlankLines() throws {
    try expectError("\n  \n\n", line: nil, containing: "the trace is empty")
  }

  @Test("a line longer than the limit is an error, with or without its newline")
  func overlongLine() throws {
    let long = #"{"kind":"step","index":0,"label":""# + String(repeating: "x", count: 600)
    for text in [Self.header + "\n" + long, Self.header + "\n" + long + "\"}\n"] {
      let path = try write(text)
      let indexError = #expect(throws: TraceReadError.self) {
        try TraceIndex(path: path, maximumLineLength: 500)
      }
      #expect(indexError?.line == 2)
      #expect(indexError?.message.contains("longer than 500 bytes") == true)
      let readerError = #expect(throws: TraceReadError.self) {
        let reader = try TraceReader(path: path, maximumLineLength: 500)
        while try reader.next() != nil {}
      }
      #expect(readerError?.line == 2)
      #expect(readerError?.message.contains("longer than 500 bytes") == true)
    }
  }

  @Test("a line of exactly the limit reads, one byte more does not, across read chunks")
  func limitExactly() throws {
    // A valid step of 1.5 MB, more than a 1 MiB read chunk.
    let opening = #"{"kind":"step","index":0,"time":0.1,"origin":"send","action":{"tap":{}},"label":""#
    let closing = #"","patch":[{"op":"replace","path":"/count","value":1}]}"#
    let length = 1_500_000
    let step = opening + String(repeating: "x", count: length - opening.utf8.count - closing.utf8.count) + closing
    let path = try write(Self.header + "\n" + step + "\n")
    #expect(try TraceIndex(path: path, maximumLineLength: length).stepCount == 1)
    let reader = try TraceReader(path: path, maximumLineLength: length)
    _ = try reader.next()
    #expect(try reader.next() != nil)
    let error = #expect(throws: TraceReadError.self) {
      try TraceIndex(path: path, maximumLineLength: length - 1)
    }
    #expect(error?.line == 2)
    #expect(error?.message == "the line is longer than 1499999 bytes, more than a trace line can be")
    let readerError = #expect(throws: TraceReadError.self) {
      let reader = try TraceReader(path: path, maximumLineLength: length - 1)
      while try reader.next() != nil {}
    }
    #expect(readerError?.line == 2)
  }

  @Test("a repeated step index") func duplicateStep() throws {
    let text = [Self.header, Self.step(0, from: 0, to: 1), Self.step(0, from: 1, to: 2)]
    try expectError(text.joined(separator: "\n") + "\n", line: 3, containing: "repeats")
  }

  @Test("a skipped step index") func skippedStep() throws {
    let text = [Self.header, Self.step(0, from: 0, to: 1), Self.step(2, from: 1, to: 2)]
    try expectError(text.joined(separator: "\n") + "\n", line: 3, containing: "skips")
  }

  @Test("a second header") func secondHeader() throws {
    try expectError(Self.header + "\n" + Self.header + "\n", line: 2, containing: "second header")
  }

  @Test("a lone header opens as a trace with no steps") func loneHeader() throws {
    let trace = try TraceIndex(path: try write(Self.header + "\n"))
    #expect(trace.stepCount == 0)
    #expect(try trace.state(afterStep: nil) == ["count": 0])
    var cursor = TraceIndex.Cursor(trace: trace)
    #expect(try cursor.forward() == false)
  }

  @Test("a torn last line is skipped with a warning naming its line") func tornLine() throws {
    let text = Self.header + "\n" + Self.step(0, from: 0, to: 1) + "\n" + #"{"kind":"step","ind"#
    let trace = try TraceIndex(path: try write(text))
    #expect(trace.stepCount == 1)
    #expect(trace.warning?.contains(":3: warning: the last line is incomplete (19 bytes)") == true)
  }

  @Test("a patch pointing at a missing path fails when applied, naming the step's line")
  func missingPath() throws {
    let text = [
      Self.header, Self.step(0, from: 0, to: 1), Self.step(1, from: 1, to: 2, path: "/gone"),
    ]
    let trace = try TraceIndex(path: try write(text.joined(separator: "\n") + "\n"))
    #expect(trace.stepCount == 2)
    let error = #expect(throws: TraceReadError.self) { try trace.state(afterStep: 1) }
    #expect(error?.line == 3)
    #expect(error?.message.contains("the patch of step 1 does not apply") == true)
    // Walking stops at the good step before it.
    var cursor = TraceIndex.Cursor(trace: trace)
    #expect(try cursor.forward())
    #expect(throws: TraceReadError.self) { try cursor.forward() }
    #expect(cursor.step == 0)
    #expect(cursor.state == ["count": 1])
  }

  @Test("a step line broken after its first bytes fails when read, naming its line")
  func brokenStepLine() throws {
    let text = Self.header + "\n" + #"{"kind":"step","index":0,"time":oops}"# + "\n"
    let trace = try TraceIndex(path: try write(text))
    #expect(trace.stepCount == 1)
    let error = #expect(throws: TraceReadError.self) { try trace.step(at: 0) }
    #expect(error?.line == 2)
    #expect(error?.message.contains("not valid JSON") == true)
  }

  @Test("records written with other spacing and member order are still indexed")
  func otherWriters() throws {
    let step =
      #"{ "index": 0, "kind": "step", "time": 0, "origin": "send", "action": null, "label": ".x", "patch": [] }"#
    let keyframe = #"{"index":0,"kind":"keyframe","state":{"count":0}}"#
    let trace = try TraceIndex(path: try write(Self.header + "\n" + step + "\n" + keyframe + "\n"))
    #expect(trace.stepCount == 1)
    #expect(trace.keyframes.map(\.step) == [0])
    #expect(try trace.step(at: 0).isReplayable == false)
  }

  @Test("a patch that fails halfway leaves the cursor where it was, with its state")
  func failedPatchKeepsState() throws {
    // Step 1 changes /count, then tests a value that is not there: it fails after a change.
    let broken =
      #"{"kind":"step","index":1,"time":0.2,"origin":"send","action":{"tap":{}},"label":".tap","patch":[{"op":"test","path":"/count","value":1},{"op":"replace","path":"/count","value":2},{"op":"test","path":"/missing","value":0}]}"#
    let text = [Self.header, Self.step(0, from: 0, to: 1), broken].joined(separator: "\n") + "\n"
    let trace = try TraceIndex(path: try write(text))
    var cursor = TraceIndex.Cursor(trace: trace)
    try cursor.forward()
    #expect(throws: TraceReadError.self) { try cursor.forward() }
    #expect(cursor.step == 0)
    #expect(cursor.state == ["count": 1])
  }
}
