import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// A line read through a learnt shape, and a step's `log --json` listing made from the line's
/// text, are exactly what the full scan and the full parser give: on hostile numbers in the
/// holes, hostile bytes anywhere, and actions whose text the writer would write otherwise.
@Suite("Step line shapes")
struct StepLineShapeTests {
  /// A step line as the recorder writes it, with `action`, `label` and `extra` members.
  static func line(
    index: String = "3", time: String = "0.0038802230000000004", cause: String? = nil,
    action: String = #"{"tapped":{}}"#, label: String = #"".tapped""#,
    values: (String, String) = ("1", "2"), extra: String = ""
  ) -> String {
    let origin = cause.map { #""effect","cause":\#($0)"# } ?? #""send""#
    return #"{"kind":"step","index":\#(index),"time":\#(time),"origin":\#(origin),"#
      + #""action":\#(action),"label":\#(label),"patch":[{"op":"test","path":"/n","value":"#
      + #"\#(values.0)},{"op":"replace","path":"/n","value":\#(values.1)}]\#(extra)}"#
  }

  /// Lines whose shapes a cache learns first.
  static let learnt: [String] = [
    line(),
    line(cause: "2", extra: #","effects":[4,5],"cancellable":["App.CancelID.timer"]"#),
    line(values: ("true", #""x""#), extra: #","cancels":["a \"b\" ,]"]"#),
    // Escapes, nested strings with braces and quotes, a double and a negative in the action.
    line(
      action: #"{"say":{"_0":"a\"b\\c\/d\u0041\n{\"k\":[1]}","_1":1.50,"_2":-0,"_3":1E2}}"#,
      label: #"".say(\"a\\\"b\")""#),
    line(action: #"{ "spaced" : [ 1 , 2 ] }"#, label: #"".spaced\u007f""#),
    // One thing each that the writer writes otherwise than the line has it.
    line(action: #"{"a":"b\/c"}"#), line(action: #"{"a":"\u0041"}"#),
    line(action: #"{"a":"x\ny"}"#), line(action: #"{"a":-0}"#), line(action: #"{"a":1.50}"#),
    line(action: #"{"a":1e2}"#), line(action: #"{"a":[1, 2]}"#),
    line(action: #"{"a":12345678901234567890}"#), line(action: #"{"a":"\u007f"}"#),
  ]

  /// Numbers a hole may hold, valid or not, as the parser reads them or refuses them.
  static let holeNumbers = [
    "0", "7", "-1", "-0", "1.5", "1e5", "1E+2", "1e400", "01", "1.", ".5", "-", "", "1 ",
    "99999999999999999999", "9007199254740993", "123456789012345678901234567890",
    "0.0000000000000000000000000001", "1e-7", "true", "\"1\"", "[1]", "null", "1,2",
  ]

  static func scan(_ text: [UInt8], cache: StepLineScanner.PointerCache, json: Bool = true)
    -> (ScannedStep, JSONPatch)?
  {
    text.withUnsafeBufferPointer { StepLineScanner.scan($0, labels: true, json: json, pointers: cache) }
  }

  /// The listing as `log --json` wrote it before scans made listings: the step's record as
  /// JSON, less four members, with `replayable` added.
  static func referenceListing(_ step: TraceStep) -> String {
    guard case .object(var object) = TraceRecord.step(step).json else { return "{}" }
    for key in ["kind", "patch", "deps", "types"] { _ = object.removeValue(forKey: key) }
    object["replayable"] = .bool(step.isReplayable)
    return JSONValue.object(object).jsonString
  }

  /// Checks that a cache that has learnt shapes reads `variant` as a fresh scanner does, and
  /// as the parser does when it reads it at all.
  static func expectSameAsFullScan(_ variant: [UInt8], cache: StepLineScanner.PointerCache) {
    let shaped = scan(variant, cache: cache)
    let fresh = scan(variant, cache: StepLineScanner.PointerCache())
    let text = String(decoding: variant, as: UTF8.self)
    #expect(shaped?.0 == fresh?.0, "\(text)")
    #expect(shaped?.1 == fresh?.1, "\(text)")
    guard let shaped else { return }
    let parsed = Result { () throws(TraceReadError) in
      try TraceRecord(parsingLine: variant[...], path: "t", line: 1)
    }
    guard case .success(.step(let step)?) = parsed else {
      Issue.record("accepted what the parser refuses: \(text)")
      return
    }
    #expect(shaped.0 == ScannedStep(listing: step), "\(text)")
    #expect(shaped.1 == step.patch, "\(text)")
    #expect(shaped.0.json == referenceListing(step), "\(text)")
  }

  static func learntCache() -> StepLineScanner.PointerCache {
    let cache = StepLineScanner.PointerCache()
    for line in learnt { _ = scan(Array(line.utf8), cache: cache) }
    return cache
  }

  @Test("each learnt line reads through its shape as the full scan and the parser read it",
    arguments: learnt)
  func learntLinesRead(line: String) {
    let cache = Self.learntCache()
    Self.expectSameAsFullScan(Array(line.utf8), cache: cache)
    #expect(cache.shapes.match(line, count: line.utf8.count) != nil, "the shape was learnt")
  }

  @Test("hostile numbers in every hole are read as the full scan reads them, or left to it",
    arguments: holeNumbers)
  func hostileHoles(number: String) {
    let cache = Self.learntCache()
    let variants = [
      Self.line(index: number), Self.line(time: number), Self.line(values: (number, "2")),
      Self.line(values: ("1", number)),
      Self.line(cause: number, extra: #","effects":[4,5],"cancellable":["App.CancelID.timer"]"#),
      Self.line(cause: "2", extra: #","effects":[\#(number),5],"cancellable":["App.CancelID.timer"]"#),
    ]
    for variant in variants { Self.expectSameAsFullScan(Array(variant.utf8), cache: cache) }
  }

  @Test("a cause beside a sent action is not read as the step's cause through its shape")
  func causeOfSentStep() {
    let cache = StepLineScanner.PointerCache()
    for index in 0..<3 {
      let line =
        #"{"kind":"step","index":\#(index),"time":0.5,"origin":"send","cause":7,"#
        + #""action":null,"label":"","patch":[]}"#
      Self.expectSameAsFullScan(Array(line.utf8), cache: cache)
    }
  }

  @Test("every prefix and one-byte change of a learnt line is read as the full scan reads it")
  func hostileBytes() {
    let cache = Self.learntCache()
    for line in [Self.learnt[1], Self.learnt[3]] {
      let bytes = Array(line.utf8)
      var variants = (0..<bytes.count).map { Array(bytes[..<$0]) }
      for position in bytes.indices {
        for byte: UInt8 in [0x22, 0x5C, 0x7B, 0x7D, 0x2C, 0x3A, 0x00, 0xFF, 0x31, 0x2D, 0x20, 0x7F]
        {
          var changed = bytes
          changed[position] = byte
          variants.append(changed)
        }
      }
      for variant in variants { Self.expectSameAsFullScan(variant, cache: cache) }
    }
  }

  @Test("invalid UTF-8, a huge line and many numbers are read as the full scan reads them")
  func oddLines() {
    let cache = Self.learntCache()
    var invalid = Array(Self.line(label: #"".caf""#).utf8)
    invalid.insert(contentsOf: [0xC3, 0x28], at: invalid.count - 90)
    let huge = Self.line(action: #"{"text":{"_0":"\#(String(repeating: "ab{}\\\"", count: 60_000))"}}"#)
    let manyNumbers = Self.line(
      extra: #","effects":[\#((0..<40).map(String.init).joined(separator: ","))]"#)
    for variant in [invalid, Array(huge.utf8), Array(manyNumbers.utf8)] {
      // Twice: the second time through any shape the first one taught.
      Self.expectSameAsFullScan(variant, cache: cache)
      Self.expectSameAsFullScan(variant, cache: cache)
    }
  }

  @Test("a cache that learns more shapes than it holds starts again and stays exact")
  func manyShapes() {
    let cache = StepLineScanner.PointerCache()
    for round in 0..<3 {
      for kind in 0..<(StepLineShapes.capacity + 7) {
        let line = Self.line(
          index: "\(round)", action: #"{"kind\#(kind)":{}}"#, label: #"".kind\#(kind)""#)
        Self.expectSameAsFullScan(Array(line.utf8), cache: cache)
      }
    }
  }

  @Test("a scan's listings are the bytes log --json wrote for every step of every trace",
    arguments: TracesTests.files)
  func listingsAsBefore(file: String) throws {
    let path = TraceIndexTests.path(file)
    let reader = try CheckedTraceReader(path: path)
    var reference = ""
    while let record = try reader.next() {
      if case .step(let step) = record { reference += Self.referenceListing(step) + "\n" }
    }
    var options = CheckedTraceReader.Scan.Options(labels: true, json: true, write: { step, out in
      out.append(contentsOf: step.json.utf8)
      out.append(0x0A)
    }, threads: 2)
    options.runSize = 2_000
    var listed = ""
    let outcome = try CheckedTraceReader.Scan.run(path: path, options: options) {
      listed += $0.text
    }
    #expect(outcome == .complete)
    #expect(listed == reference)
  }

  @Test("a last line cut inside a learnt shape's hole goes to the checked reader")
  func tornInHole() throws {
    let path = try TraceScanTests.editedCounter("torn-hole") { lines in
      let last = lines.lastIndex { $0.hasPrefix(#"{"kind":"step","#) }!
      return Array(lines[...last])
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    // Cut right after the last patch value's first digit, newline and all.
    let cut = bytes.lastIndex(of: UInt8(ascii: ":"))! + 2
    bytes.removeSubrange(cut...)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let (outcome, _, _) = try TraceScanTests.scannedCounts(path, runSize: 1 << 20, changed: nil)
    guard case .needsCheckedRead = outcome else {
      Issue.record("a torn last line must go to the checked reader")
      return
    }
  }
}

extension StepLineShapes {
  /// Matches a string's bytes: for tests.
  func match(_ line: String, count: Int) -> StepLineShape? {
    Array(line.utf8).withUnsafeBufferPointer { match($0.baseAddress!, count: count) }
  }
}

/// The member operations a shape applies without building its patch succeed and fail where
/// `JSONPatch` does, with the same result.
@Suite("Member operations")
struct MemberOperationTests {
  static let documents: [JSONValue] = [
    ["n": 1, "s": "x", "o": ["n": 1]], ["s": "x"], [:], ["n": .null],
  ]
  static let operations: [JSONPatch.Operation] = [
    .test(path: JSONPointer("/n")!, value: 1), .test(path: JSONPointer("/n")!, value: 1.0),
    .test(path: JSONPointer("/n")!, value: .null), .replace(path: JSONPointer("/n")!, value: 2),
    .add(path: JSONPointer("/n")!, value: 3), .remove(path: JSONPointer("/n")!),
    .replace(path: JSONPointer("/a~1b")!, value: 2), .add(path: JSONPointer("/")!, value: 4),
  ]

  @Test("each member operation applies exactly where the patch applies", arguments: operations)
  func sameAsPatch(operation: JSONPatch.Operation) throws {
    let member = try #require(MemberOperation(operation, hole: -1))
    for document in Self.documents {
      let patched = try? JSONPatch([operation]).apply(to: document)
      var state = document
      let applied = state.modifyObject { member.apply(member.value, to: &$0) } ?? false
      #expect(applied == (patched != nil), "\(operation) on \(document.jsonString)")
      if let patched, applied { #expect(state == patched) }
    }
  }
}

@Suite("Step line shapes on long patches")
struct LongPatchShapeTests {
  @Test(
    "a patch of many numbers is read without numbering them for a shape it cannot have",
    arguments: ["add", "test", "replace"])
  func manyNumbers(op: String) throws {
    let count = 20_000
    var line = #"{"kind":"step","index":0,"time":0.001,"origin":"send","action":{"x":{}},"#
      + #""label":".x","patch":["#
    for index in 0..<count {
      if index > 0 { line += "," }
      let path = op == "add" ? "/a/-" : "/a/\(index)"
      line += #"{"op":"\#(op)","path":"\#(path)","value":\#(index)}"#
    }
    line += "]}"
    let cache = StepLineScanner.PointerCache()
    let (_, patch) = try #require(StepLineShapeTests.scan(Array(line.utf8), cache: cache))
    #expect(patch.operations.count == count)
    // A shape holds a few dozen numbers; looking up 20,000, each among 20,000, was quadratic.
    #expect(cache.holeLookups <= StepLineShapes.maximumHoles + 3)
  }
}
