import Foundation
import TestSupport
import Testing

/// Every command reads a trace whole: a rotated recording as its kept set, and a corrupted
/// trace refused with the same first bad line, on recordings made here by `record-traces`.
@Suite("A trace reads whole")
struct WholeTraceTests {
  typealias Runner = ToolRunner

  static let recorder = Runner.executable.deletingLastPathComponent()
    .appendingPathComponent("record-traces").path

  /// Records `steps` ledger postings into `name` in a fresh directory, rotating as told.
  static func record(_ steps: Int, maxBytes: Int, keep: Int) throws -> String {
    let directory = Scratch.url("whole")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let trace = directory.appendingPathComponent("ledger.ndjson").path
    let recording = try ChildProcess.run(
      recorder, ["--ledger-rotating", "\(steps)", "\(maxBytes)", "\(keep)", trace],
      timeLimit: 120)
    #expect(recording.status == 0)
    return trace
  }

  /// The step numbers on the files' step lines, read as bytes: what the kept set holds.
  static func keptSteps(_ trace: String) throws -> [Int] {
    var steps: [Int] = []
    var index = 0
    while true {
      let name = index == 0 ? trace : "\(trace).\(index)"
      guard let text = try? String(contentsOfFile: name, encoding: .utf8) else { break }
      for match in text.matches(of: /\{"kind":"step","index":(\d+),/) {
        steps.append(Int(match.1)!)
      }
      index += 1
    }
    return steps.sorted()
  }

  @Test("a rotated recording reads as its kept set, oldest first, in every command")
  func rotatedSet() throws {
    // Segments of about 15 steps, two older ones kept: the newest alone holds fewer.
    let trace = try Self.record(300, maxBytes: 6000, keep: 2)
    let kept = try Self.keptSteps(trace)
    #expect(FileManager.default.fileExists(atPath: trace + ".2"))
    #expect(kept == Array(kept.first!...299), "the kept steps are contiguous and end at 299")

    let summary = try Runner.run(["summary", trace])
    #expect(summary.status == 0, "\(summary.errors)")
    #expect(summary.output.contains("steps        \(kept.count) over"), "\(summary.output)")

    let log = try Runner.run(["log", trace])
    #expect(log.status == 0, "\(log.errors)")
    let logged = log.output.split(separator: "\n").compactMap {
      Int($0.prefix(6).trimmingCharacters(in: .whitespaces))
    }
    #expect(logged == kept, "log lists the kept steps in order")

    let genTest = try Runner.run(["gen-test", trace])
    #expect(genTest.status == 0, "\(genTest.errors)")
    let generated = genTest.output.matches(of: /\/\/ Step (\d+)/).map { Int($0.1)! }
    #expect(generated == kept, "gen-test sends every kept step, in order")

    let page = trace + ".html"
    let view = try Runner.run(["view", trace, "-o", page])
    #expect(view.status == 0, "\(view.errors)")
    #expect((view.output + view.errors).contains("(\(kept.count) steps,"), "\(view.errors)")

    // The newest segment alone starts later: search finds changes in the older ones too.
    let newest = try String(contentsOfFile: trace, encoding: .utf8)
      .firstMatch(of: /\{"kind":"step","index":(\d+),/).map { Int($0.1)! }
    let search = try Runner.run(["search", trace, "savings"])
    #expect(search.status == 0, "\(search.errors)")
    let found = search.output.matches(of: #/(?m)^step (\d+) /#).map { Int($0.1)! }
    #expect(found.min().map { $0 < newest ?? 0 } == true, "\(search.output)")
  }

  @Test("every command refuses a corrupted patch with exit 65, naming the same first bad line")
  func corruptedPatch() throws {
    let good = try Self.record(300, maxBytes: 1 << 30, keep: 0)
    var lines = try String(contentsOfFile: good, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Step 150's first `test` expects a balance it never had: its patch does not apply.
    let bad = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"step","index":150,"#) })
    let corrupted = lines[bad].replacing(
      #/"op":"test","path":"([^"]+)","value":\d+/#,
      maxReplacements: 1
    ) { #""op":"test","path":"\#($0.1)","value":987654321"# }
    #expect(corrupted != lines[bad])
    lines[bad] = corrupted
    let trace = good + ".bad.ndjson"
    try lines.joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
    let named = "\(trace):\(bad + 1): "

    // Steps chosen so that a reader from the nearest keyframe never applies step 150's patch.
    let runs: [(String, [String], String?)] = [
      ("summary", ["summary", trace], nil),
      ("log", ["log", trace], nil),
      ("show", ["show", trace, "170"], nil),
      ("state", ["state", trace, "170"], nil),
      ("diff", ["diff", trace, "140", "170"], nil),
      ("search", ["search", trace, "savings"], nil),
      ("gen-test", ["gen-test", trace], nil),
      ("view", ["view", trace, "-o", trace + ".html"], nil),
      ("export", ["export", trace, "--format", "json-patch"], nil),
      ("step", ["step", trace], "goto 100\ngoto 150\ngoto 200\nlast\nq\n"),
    ]
    for (name, arguments, input) in runs {
      let result = try Runner.run(arguments, input: input)
      #expect(result.status == 65, "\(name): \(result.status) \(result.errors)")
      #expect(result.errors.contains("Error: " + named), "\(name): \(result.errors)")
      if name == "step" {
        // Step 100 comes before the bad line; the moves past it print the error and stay.
        #expect(result.output.contains("step 100/299"), "\(result.output)")
        for refused in ["step 150/", "step 200/", "step 299/"] {
          #expect(!result.output.contains(refused), "\(refused) in \(result.output)")
        }
        #expect(result.errors.components(separatedBy: named).count == 4, "\(result.errors)")
      }
    }
  }
}
