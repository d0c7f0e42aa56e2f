import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// The fast paths of a full scan give what the full parse and the checked reader give: on odd
/// and hostile lines, `StepLineScanner` either reads what the parser reads or leaves the line
/// to it; `CheckedTraceReader.Scan` either counts what `CheckedTraceReader` counts or hands the
/// trace to it.
@Suite("Trace scan")
struct TraceScanTests {
  static let patch = #"[{"op":"test","path":"/n","value":1},{"op":"replace","path":"/n","value":2}]"#

  /// A step line with `label` and `extra` members, in the order the recorder writes.
  static func stepLine(index: Int = 3, label: String = #"".tapped""#, extra: String = "") -> String {
    #"{"kind":"step","index":\#(index),"time":0.5,"origin":"send","action":{"tapped":{}},"#
      + #""label":\#(label),"patch":\#(patch)\#(extra)}"#
  }

  /// Lines the scanner must read exactly as the parser does.
  static let readable: [String] = [
    stepLine(),
    // A kind key, and a whole step's first bytes, inside string values.
    stepLine(label: #""{\"kind\":\"keyframe\",\"index\":3,""#),
    stepLine(extra: #","types":{"T":{"enum":{"kind":"{\"kind\":\"header\"}"}}}"#),
    // Escaped quotes and backslashes, and unicode escapes, in the label.
    stepLine(label: #"".say(\"hi\\\" there\")""#),
    stepLine(label: #"".say(\"\u00e9\ud83d\ude00\ud800\")""#),
    // Keys in another order, and whitespace between tokens.
    #"{ "patch" : \#(patch) , "label":".x", "action":null, "origin":"effect", "cause":2, "#
      + #""time":1.25e-3, "index":7, "kind":"step", "effects":[4, 5] }"#,
    // A CRLF line ending: the reader leaves the carriage return in the line.
    stepLine() + "\r",
    stepLine(extra: #","deps":[],"effects":[]"#),
    // Effect names, as a step that starts or cancels a cancellable effect has them.
    stepLine(extra: #","effects":[9],"cancellable":["App.CancelID.timer","a \"b\" ,]"]"#),
    stepLine(extra: #","cancels":[ "x" , "y" ],"cancellable":[]"#),
    #"{"kind":"step","index":0,"time":0,"origin":"effect","cause":null,"action":{"a":[1,-2.5,true,false,null,"s"]},"label":"","patch":[]}"#,
  ]

  /// Lines the scanner must leave to the parser, valid or not.
  static let leftToParser: [String] = [
    // Not a step, or a kind this build does not know with a step's words inside.
    #"{"kind":"keyframe","index":3,"state":{"n":2}}"#,
    #"{"kind":"crash","note":"{\"kind\":\"step\",\"index\":4,"}"#,
    #"{"kind":"st\u0065p","index":3,"time":0.5,"origin":"send","action":null,"label":"","patch":[]}"#,
    // Duplicate keys: at the top, escaped, and inside the action.
    stepLine(extra: #","label":"again""#),
    stepLine(extra: #","\u006cabel":"again""#),
    #"{"kind":"step","index":3,"time":0.5,"origin":"send","action":{"a":1,"a":2},"label":"","patch":[]}"#,
    // Truncated, a raw control character, a raw non-ASCII byte, invalid UTF-8.
    String(stepLine().dropLast(9)),
    stepLine(label: "\".a\u{1}b\""),
    stepLine(label: "\".caf\u{e9}\""),
    // Numbers the parser reads another way, or refuses.
    #"{"kind":"step","index":3.0,"time":0.5,"origin":"send","action":null,"label":"","patch":[]}"#,
    #"{"kind":"step","index":3,"time":1e400,"origin":"send","action":null,"label":"","patch":[]}"#,
    #"{"kind":"step","index":03,"time":1,"origin":"send","action":null,"label":"","patch":[]}"#,
    // Members a step needs checked member by member, or does not have.
    stepLine(extra: #","deps":[{"uuid":"X"}]"#),
    stepLine(extra: #","comment":"new""#),
    stepLine(extra: #","cancellable":["a",1]"#),
    stepLine(extra: #","cancels":"a""#),
    stepLine(extra: #","cancels":[["a"]]"#),
    stepLine(extra: #","cancellable":[{"a":"b"}]"#),
    stepLine(extra: #","effects":[-1]"#),
    #"{"kind":"step","index":3,"time":0.5,"origin":"sent","action":null,"label":"","patch":[]}"#,
    #"{"kind":"step","index":3,"time":0.5,"origin":"send","action":null,"label":"","patch":[{"op":"jump"}]}"#,
    #"{"kind":"step","index":3,"time":0.5,"origin":"send","label":"","patch":[]}"#,
    #"{"kind":"step","index":3,"time":"0.5","origin":"send","action":null,"label":"","patch":[]}"#,
  ]

  static func scan(_ line: String) -> (ScannedStep, JSONPatch)? {
    Array(line.utf8).withUnsafeBufferPointer { StepLineScanner.scan($0, labels: true) }
  }

  static func parse(_ line: String) -> Result<TraceRecord?, TraceReadError> {
    Result { () throws(TraceReadError) in
      try TraceRecord(parsingLine: Array(line.utf8)[...], path: "t", line: 1)
    }
  }

  @Test("the scanner reads odd but valid step lines exactly as the full parser does",
    arguments: readable)
  func readsAsParser(line: String) throws {
    let scanned = try #require(Self.scan(line), "the fast path should read this line")
    guard case .success(.step(let step)?) = Self.parse(line) else {
      Issue.record("the parser should read a step")
      return
    }
    #expect(scanned.0 == ScannedStep(step))
    #expect(scanned.1 == step.patch)
  }

  @Test("the scanner leaves to the parser what it does not expect, so errors stay the parser's",
    arguments: leftToParser)
  func leavesToParser(line: String) {
    #expect(Self.scan(line) == nil)
  }

  @Test("the scanner never accepts a line the parser refuses or reads otherwise")
  func neverLooser() {
    // Every prefix and every one-byte change of a valid line: hostile bytes in every place.
    let line = Array(Self.readable[5].utf8)
    var variants = (0..<line.count).map { Array(line[..<$0]) }
    for position in line.indices {
      for byte: UInt8 in [0x22, 0x5C, 0x7B, 0x7D, 0x2C, 0x3A, 0x00, 0xFF, 0x31, 0x20] {
        var changed = line
        changed[position] = byte
        variants.append(changed)
      }
    }
    for variant in variants {
      let scanned = variant.withUnsafeBufferPointer { StepLineScanner.scan($0, labels: true) }
      guard let scanned else { continue }
      let parsed = Result { () throws(TraceReadError) in
        try TraceRecord(parsingLine: variant[...], path: "t", line: 1)
      }
      guard case .success(.step(let step)?) = parsed else {
        Issue.record("accepted what the parser refuses: \(String(decoding: variant, as: UTF8.self))")
        continue
      }
      #expect(scanned.0 == ScannedStep(step))
      #expect(scanned.1 == step.patch)
    }
  }

  /// Times in the shapes a recorder writes (sums of small floats have many digits) and at the
  /// edges of the scanner's exact path.
  static let times = [
    "0.000185526", "0.00018577600000000002", "0.30000000000000004", "0.1", "-0.5", "-0.0", "0",
    "-0", "7", "123456789.123456789", "9007199254740993.5", "900719925474099.3", "1.25e-3",
    "1E2", "5e-3", "0.0000000000000000000001", "0.00000000000000000000001",
    "1234567890123456789.5", "0.1234567890123456789", "3.141592653589793238462643383279",
    // Up to 19 significant digits, where rounding to 64 bits first lands on a Double's halfway
    // point: read through Float80, these round wrongly unless left to strtod.
    "650.9348221053807606", "535.882468424684987", "37.49662094632644127",
    "433.6462500167022256", "69.85635371919537562", "0.0038802230000000004",
  ]

  @Test("the scanner reads each time to the same bits as the parser", arguments: times)
  func timesAsParser(time: String) throws {
    let line =
      #"{"kind":"step","index":3,"time":\#(time),"origin":"send","action":null,"label":"","#
      + #""patch":[]}"#
    let scanned = try #require(Self.scan(line))
    guard case .success(.step(let step)?) = Self.parse(line) else {
      Issue.record("the parser should read a step")
      return
    }
    #expect(scanned.0.time.bitPattern == step.time.bitPattern)
  }

  @Test("actions the scanner has checked before do not make it looser")
  func cachedActionsNeverLooser() {
    // A cache that has seen the line's action, then every prefix and one-byte change of it.
    let line = Array(Self.readable[0].utf8)
    let cache = StepLineScanner.PointerCache()
    #expect(line.withUnsafeBufferPointer { StepLineScanner.scan($0, labels: true, pointers: cache) } != nil)
    var variants = (0..<line.count).map { Array(line[..<$0]) }
    for position in line.indices {
      for byte: UInt8 in [0x22, 0x5C, 0x7B, 0x7D, 0x2C, 0x3A, 0x00, 0xFF, 0x31, 0x20] {
        var changed = line
        changed[position] = byte
        variants.append(changed)
      }
    }
    // The same action again after a member, or twice.
    variants.append(Array(Self.stepLine(extra: #","action":{"tapped":{}}"#).utf8))
    for variant in variants {
      let scanned = variant.withUnsafeBufferPointer {
        StepLineScanner.scan($0, labels: true, pointers: cache)
      }
      guard let scanned else { continue }
      let parsed = Result { () throws(TraceReadError) in
        try TraceRecord(parsingLine: variant[...], path: "t", line: 1)
      }
      guard case .success(.step(let step)?) = parsed else {
        Issue.record("accepted what the parser refuses: \(String(decoding: variant, as: UTF8.self))")
        continue
      }
      #expect(scanned.0 == ScannedStep(step))
      #expect(scanned.1 == step.patch)
    }
  }

  // MARK: - Whole traces

  /// What `summary` counts, from the checked reader: the reference.
  struct Counts: Equatable {
    var steps = 0, sent = 0, notReplayable = 0, started = 0, keyframes = 0
    var events: [EffectEvent.Kind: Int] = [:]
    var lastTime: Double?
    var ended = false
    var text = ""
  }

  static func render(_ step: ScannedStep) -> String {
    "\(step.index) \(step.time) \(step.origin) \(step.label) \(step.effects) "
      + "\(step.isReplayable) \(step.changed)"
  }

  static func checkedCounts(_ path: String, changed: JSONPointer?) throws -> Counts {
    let reader = try CheckedTraceReader(path: path)
    var counts = Counts()
    var before: JSONValue?
    while let record = try reader.next() {
      let after = changed?.resolve(in: reader.state)
      defer { before = after }
      switch record {
      case .step(let step):
        counts.steps += 1
        if step.origin == .send { counts.sent += 1 }
        if !step.isReplayable { counts.notReplayable += 1 }
        counts.started += step.effects.count
        counts.lastTime = step.time
        counts.text += render(ScannedStep(step, changed: changed == nil || after != before)) + "\n"
      case .keyframe: counts.keyframes += 1
      case .effect(let event): counts.events[event.event, default: 0] += 1
      case .end(let end):
        counts.ended = true
        counts.lastTime = end.time
      default: break
      }
    }
    return counts
  }

  static func scannedCounts(_ path: String, runSize: Int, changed: JSONPointer?) throws
    -> (CheckedTraceReader.Scan.Outcome, Counts, runs: Int)
  {
    var options = CheckedTraceReader.Scan.Options(
      labels: true, changed: changed.map(StatePath.init),
      write: { step, text in text += Array((render(step) + "\n").utf8) }, threads: 2)
    options.runSize = runSize
    var counts = Counts()
    var runs = 0
    let outcome = try CheckedTraceReader.Scan.run(path: path, options: options) { chunk in
      runs += 1
      counts.steps += chunk.stepCount
      counts.sent += chunk.sent
      counts.notReplayable += chunk.notReplayable
      counts.started += chunk.effectsStarted
      counts.keyframes += chunk.keyframes
      for (kind, count) in chunk.effectEvents { counts.events[kind, default: 0] += count }
      if let time = chunk.lastTime { counts.lastTime = time }
      if chunk.end != nil { counts.ended = true }
      counts.text += chunk.text
    }
    return (outcome, counts, runs)
  }

  @Test("a scan split into many runs counts and lists what the checked reader reads",
    arguments: TracesTests.files)
  func sameAsChecked(file: String) throws {
    let path = TraceIndexTests.path(file)
    for changed in [nil, JSONPointer("/count"), JSONPointer("")] {
      let reference = try Self.checkedCounts(path, changed: changed)
      for runSize in [1_000, 1 << 20] {
        let (outcome, counts, runs) = try Self.scannedCounts(
          path, runSize: runSize, changed: changed)
        #expect(outcome == .complete)
        #expect(counts == reference)
        if runSize == 1_000 { #expect(runs > 3) }
      }
    }
  }

  /// `Traces/counter.ndjson` changed by `edit`, written to a temporary file.
  static func editedCounter(_ name: String, _ edit: ([String]) -> [String], ending: String = "\n")
    throws -> String
  {
    let text = try String(contentsOfFile: TraceIndexTests.path("counter.ndjson"), encoding: .utf8)
    let lines = edit(text.split(separator: "\n").map(String.init))
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("trace-scan-\(name)-\(UUID().uuidString).ndjson").path
    try (lines.joined(separator: ending) + ending).write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("CRLF line ends, keyframes written in another order and unknown records scan as read")
  func oddButValidTraces() throws {
    let crlf = try Self.editedCounter("crlf", { $0 }, ending: "\r\n")
    let reordered = try Self.editedCounter("reordered") { lines in
      lines.map { line in
        guard line.hasPrefix(#"{"kind":"keyframe","#) else { return line }
        // The same members, `kind` last: no longer found by its first bytes.
        return "{" + line.dropFirst(#"{"kind":"keyframe","#.count).dropLast() + #","kind":"keyframe"}"#
      }
    }
    let unknown = try Self.editedCounter("unknown") { lines in
      lines.flatMap { [$0, #"{"kind":"bookmark","note":"{\"kind\":\"step\",\"index\":0,"}"#] }
    }
    for path in [crlf, reordered, unknown] {
      defer { try? FileManager.default.removeItem(atPath: path) }
      let reference = try Self.checkedCounts(path, changed: nil)
      let (outcome, counts, _) = try Self.scannedCounts(path, runSize: 800, changed: nil)
      #expect(outcome == .complete, "\(path)")
      #expect(counts == reference, "\(path)")
    }
  }

  @Test("a trace with a problem anywhere goes to the checked reader, from the first run not delivered")
  func problemsGoToCheckedReader() throws {
    let edits: [(String, ([String]) -> [String], String)] = [
      ("torn", { $0 }, ""),
      ("blank", { lines in var l = lines; l.insert("", at: 40); return l }, "\n"),
      ("patch", { lines in
        // One test of a step late in the trace no longer holds.
        var edited = lines
        let last = edited.lastIndex { $0.contains(#""op":"test","path":"/count","value":"#) }!
        edited[last] = edited[last].replacingOccurrences(
          of: #""op":"test","path":"/count","value":"#, with: #""op":"test","path":"/count","value":9"#)
        return edited
      }, "\n"),
      ("keyframe", { lines in
        lines.map { $0.hasPrefix(#"{"kind":"keyframe","#)
          ? $0.replacingOccurrences(of: #""count":"#, with: #""count":1"#) : $0 }
      }, "\n"),
      ("header", { lines in [lines[0]] + lines }, "\n"),
    ]
    for (name, edit, ending) in edits {
      let path = try Self.editedCounter(name, edit, ending: "\n")
      if ending.isEmpty {
        // Cut the last line short.
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.removeLast(20)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
      }
      defer { try? FileManager.default.removeItem(atPath: path) }
      let problem = CheckedTraceReader.firstProblem(in: path)
      let reader = try CheckedTraceReader(path: path)
      do { while try reader.next() != nil {} } catch {}
      #expect(problem != nil || reader.warning != nil, "\(name) should be a problem")
      let (outcome, counts, _) = try Self.scannedCounts(path, runSize: 700, changed: nil)
      guard case .needsCheckedRead(let fromLine) = outcome else {
        Issue.record("\(name): the scan did not hand the trace to the checked reader")
        continue
      }
      // The runs delivered end before the problem, and list what the checked reader lists.
      if let line = problem?.line { #expect(fromLine <= line, "\(name)") }
      let listed = counts.text.split(separator: "\n").count
      #expect(listed == counts.steps)
    }
  }

  @Test("the step table gives back every location, across blocks and wide offsets and numbers")
  func stepTable() {
    var table = StepLineTable()
    var locations: [LineLocation] = []
    var offset = 0
    var number = 1
    for index in 0..<10_000 {
      // Now and then a jump of more than 4 GiB, or of more than 65,535 lines.
      offset += index == 5_000 ? 5 << 30 : 200
      number += index == 7_000 ? 70_000 : 2
      let location = LineLocation(offset: offset, length: 100 + index % 7, number: number)
      locations.append(location)
      table.append(location)
    }
    #expect(table.count == locations.count)
    for (position, location) in locations.enumerated() { #expect(table[position] == location) }
  }
}
