import Foundation
import Recorder
import TestSupport
import Testing

/// The commands that index a trace (`state`, `show`, `diff`, `export`, the stepper) read a
/// rotated recording as its kept set, on a signal box recorded here, rotated and not.
@Suite("A rotated set reads whole in the indexed commands")
struct RotatedSetTests {
  typealias Runner = ToolRunner

  /// Two ways to keep 9 of 14 steps (5…13): two segments of five and four steps, and nine
  /// segments of one step each.
  static let limits: [TraceRecorder.SizeLimit] = [
    .lastSteps(5), .rotate(maxBytes: 1, keep: 8),
  ]
  static let kept = 5...13

  /// The session recorded rotated by `limit`, and unrotated, in a fresh directory.
  static func record(_ limit: TraceRecorder.SizeLimit) throws -> (rotated: String, whole: String) {
    let directory = Scratch.url("rotated-set")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let rotated = directory.appendingPathComponent("box.ndjson").path
    let whole = directory.appendingPathComponent("whole.ndjson").path
    try SignalBox.record(to: rotated, limit: limit)
    try SignalBox.record(to: whole, limit: nil)
    return (rotated, whole)
  }

  /// The files of the set at `trace`, with the lines of each.
  static func segments(_ trace: String) -> [(path: String, lines: [String])] {
    var found: [(String, [String])] = []
    for index in 0... {
      let name = index == 0 ? trace : "\(trace).\(index)"
      guard let text = try? String(contentsOfFile: name, encoding: .utf8) else { break }
      found.append((name, text.split(separator: "\n").map(String.init)))
    }
    return found
  }

  /// Runs the same command on both recordings; they must succeed and answer alike, once
  /// `normalized`.
  static func expectSame(
    _ arguments: [String], _ traces: (rotated: String, whole: String),
    normalized: (String) -> String = { $0 }, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let rotated = try Runner.run([arguments[0], traces.rotated] + arguments.dropFirst())
    let whole = try Runner.run([arguments[0], traces.whole] + arguments.dropFirst())
    #expect(rotated.status == 0, "\(arguments): \(rotated.errors)", sourceLocation: sourceLocation)
    #expect(!whole.output.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
    #expect(
      normalized(rotated.output) == normalized(whole.output), "\(arguments)",
      sourceLocation: sourceLocation)
  }

  /// A later segment's header writes the state's members in declaration order, where patches
  /// added them at the end: JSON is compared as values, and a diff's lines as a set.
  static func jsonValue(_ text: String) -> NSObject? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSObject
  }
  static func sortedLines(_ text: String) -> String {
    text.split(separator: "\n").sorted().joined(separator: "\n")
  }
  /// `show` without the step's time, which differs between two recordings.
  static func untimed(_ text: String) -> String {
    text.split(separator: "\n").filter { !$0.hasPrefix("  at ") }.joined(separator: "\n")
  }

  @Test("state, show and diff answer for the 9 kept steps as the unrotated recording does",
    arguments: limits)
  func states(limit: TraceRecorder.SizeLimit) throws {
    let traces = try Self.record(limit)
    #expect(Self.segments(traces.rotated).count > 1, "the recording rotated")
    #expect(try TraceIndex(path: traces.rotated).stepIndices == 5..<14)
    for step in Self.kept {
      try Self.expectSame(["state", "\(step)"], traces)
      let json = try Runner.run(["state", traces.rotated, "\(step)", "--json"])
      let wholeJSON = try Runner.run(["state", traces.whole, "\(step)", "--json"])
      #expect(Self.jsonValue(json.output) != nil, "\(json.errors)")
      #expect(Self.jsonValue(json.output) == Self.jsonValue(wholeJSON.output), "step \(step)")
      try Self.expectSame(["show", "\(step)"], traces, normalized: Self.untimed)
    }
    try Self.expectSame(["state", "last", "--path", "/route"], traces)
    try Self.expectSame(["diff", "5", "13"], traces, normalized: Self.sortedLines)
    try Self.expectSame(["diff", "6", "11"], traces, normalized: Self.sortedLines)

    // The steps older segments held are not in the trace, as in one truncated file.
    let dropped = try Runner.run(["state", traces.rotated, "2"])
    #expect(dropped.status == 64)
    #expect(dropped.errors.contains("there is no step 2: steps are 5…13"), "\(dropped.errors)")
  }

  @Test("export writes the kept set as one trace, whose states are the unrotated recording's",
    arguments: limits)
  func export(limit: TraceRecorder.SizeLimit) throws {
    let traces = try Self.record(limit)
    let export = try Runner.run(["export", traces.rotated, "--format", "json-patch"])
    #expect(export.status == 0, "\(export.errors)")
    let lines = export.output.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix(#"{"kind":"header""#) }.count == 1)
    let steps = lines.compactMap { $0.firstMatch(of: /^\{"kind":"step","index":(\d+),/) }
    #expect(steps.map { Int($0.1)! } == Array(Self.kept))

    // The export reads as a trace of its own, with the kept steps' states.
    let exported = traces.rotated + ".export.ndjson"
    try export.output.write(toFile: exported, atomically: true, encoding: .utf8)
    for step in [5, 9, 13] {
      let fromExport = try Runner.run(["state", exported, "\(step)", "--json"])
      let fromWhole = try Runner.run(["state", traces.whole, "\(step)", "--json"])
      #expect(fromExport.status == 0, "\(fromExport.errors)")
      #expect(Self.jsonValue(fromExport.output) != nil, "\(fromExport.errors)")
      #expect(
        Self.jsonValue(fromExport.output) == Self.jsonValue(fromWhole.output), "step \(step)")
    }
  }

  @Test("the stepper walks the kept set across segments: goto, back, watch, reverse-continue",
    arguments: limits)
  func stepper(limit: TraceRecorder.SizeLimit) throws {
    let traces = try Self.record(limit)
    let script = """
      goto 6
      print /movements
      back
      print
      goto 12
      back
      watch /route
      reverse-continue
      print /route
      last
      quit

      """
    let rotated = try Runner.run(["step", traces.rotated], input: script)
    let whole = try Runner.run(["step", traces.whole], input: script)
    #expect(rotated.status == 0, "\(rotated.errors)")
    #expect(rotated.output.hasPrefix("\(traces.rotated): SignalBox, 9 steps (5…13)."))
    #expect(rotated.output.contains("initial state, before step 5\n"), "\(rotated.output)")
    // After the opening lines, which name the file, its steps and the first, they answer alike.
    let answers = { (text: String) in text.split(separator: "\n").dropFirst(2) }
    #expect(answers(rotated.output) == answers(whole.output), "\(rotated.output)")
    #expect(rotated.output.contains("step 5/13"), "\(rotated.output)")
  }

  @Test("a corrupted patch in an older segment is named by its file and line in every command",
    arguments: limits)
  func corruptedOlderSegment(limit: TraceRecorder.SizeLimit) throws {
    let traces = try Self.record(limit)
    let trace = traces.rotated
    // Step 6's patch tests a count it never had: it does not apply.
    let segment = try #require(
      Self.segments(trace).first { $0.lines.contains { $0.hasPrefix(#"{"kind":"step","index":6,"#) } })
    #expect(segment.path != trace, "step 6 is in an older segment")
    var lines = segment.lines
    let bad = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"step","index":6,"#) })
    let corrupted = lines[bad].replacing(
      #/"op":"test","path":"/movements","value":\d+/#, maxReplacements: 1
    ) { _ in #""op":"test","path":"/movements","value":987654321"# }
    #expect(corrupted != lines[bad])
    lines[bad] = corrupted
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: segment.path, atomically: true, encoding: .utf8)
    let named = "Error: \(segment.path):\(bad + 1): "

    let runs: [(String, [String], String?)] = [
      ("state", ["state", trace, "6"], nil),
      ("show", ["show", trace, "6"], nil),
      ("diff", ["diff", trace, "5", "8"], nil),
      ("export", ["export", trace, "--format", "json-patch"], nil),
      ("step", ["step", trace], "goto 5\ngoto 6\ngoto 12\nlast\nquit\n"),
    ]
    for (name, arguments, input) in runs {
      let result = try Runner.run(arguments, input: input)
      #expect(result.status == 65, "\(name): \(result.status) \(result.errors)")
      #expect(result.errors.contains(named), "\(name): \(result.errors)")
      if name == "step" {
        // Step 5 comes before the bad line; every move on or past it, in any segment, is refused.
        #expect(result.output.contains("step 5/13"), "\(result.output)")
        for refused in ["step 6/", "step 12/", "step 13/"] {
          #expect(!result.output.contains(refused), "\(refused) in \(result.output)")
        }
        #expect(result.errors.components(separatedBy: named).count == 4, "\(result.errors)")
      }
    }
  }

  @Test("a later segment whose header does not continue the one before is refused as summary does")
  func brokenContinuation() throws {
    let traces = try Self.record(.lastSteps(5))
    let trace = traces.rotated
    // The newest segment starts at step 10: its header says the count was 99, not 10.
    var lines = try #require(Self.segments(trace).first).lines
    let tampered = lines[0].replacing(#/"movements":10\}/#, maxReplacements: 1) { _ in
      #""movements":99}"#
    }
    #expect(tampered != lines[0])
    lines[0] = tampered
    try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)
    let named = "Error: \(trace):1: the segment's initial state is not the state the one before it ends with"

    let summary = try Runner.run(["summary", trace])
    #expect(summary.status == 65)
    #expect(summary.errors.contains(named), "\(summary.errors)")
    // Step 9 is the last of the older segment: its run of patches ends at the newer header.
    for arguments in [["state", trace, "9"], ["diff", trace, "8", "9"]] {
      let result = try Runner.run(arguments)
      #expect(result.status == 65, "\(arguments): \(result.errors)")
      #expect(result.errors.contains(named), "\(arguments): \(result.errors)")
    }
  }
}
