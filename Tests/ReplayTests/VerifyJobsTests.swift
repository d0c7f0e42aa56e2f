import Foundation
import ReplayMutants
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `verify --jobs`, `--shard` and `--junit` on a folder of traces recorded in this run, through a
/// host whose counter reducer is changed: one kind of trace diverges, a broken one cannot be
/// tested, and one trace's name holds characters XML must escape or drop.
@Suite("verify for CI: jobs, shards and JUnit")
struct VerifyJobsTests {
  static let host = ToolReplayTests.mutantHost(.factFailureAsFact)

  /// Three copies of each fresh example trace, a trace that is no trace, and a hostile name.
  static let folder: String = {
    let folder = Paths.freshRoot.appendingPathComponent("ci-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for copy in 1...3 {
      for name in ["counter", "todos", "composed-app", "bookshelf"] {
        try! FileManager.default.copyItem(
          atPath: Paths.trace("\(name).ndjson"), toPath: "\(folder)/\(copy)-\(name).ndjson")
      }
    }
    let lines = try! String(contentsOfFile: Paths.trace("counter.ndjson"), encoding: .utf8)
      .split(separator: "\n")
    try! (lines[1] + "\n").write(toFile: "\(folder)/2-broken.ndjson", atomically: true, encoding: .utf8)
    try! FileManager.default.copyItem(
      atPath: Paths.trace("counter.ndjson"), toPath: "\(folder)/4-<a&b\u{1}\">.ndjson")
    return folder
  }()

  static let traceCount = 14

  /// The trace path each verdict line names.
  static func tracesNamed(_ output: String) -> [String] {
    output.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("\(traceCount) traces") else { return nil }
      let path = line.dropFirst(13)
      return String(path[..<(path.range(of: ".ndjson")!.upperBound)])
    }
  }

  @Test("--jobs 2 prints byte for byte what --jobs 1 prints, and exits the same")
  func jobsSameOutput() async throws {
    let one = try await Run.tool("verify", Self.folder, "--host", Self.host, "--jobs", "1")
    let two = try await Run.tool("verify", Self.folder, "--host", Self.host, "--jobs", "2")
    #expect(one.status == 1)
    #expect(two.status == one.status)
    #expect(two.output == one.output)
    #expect(one.output.hasSuffix("14 traces: 9 ok, 4 diverge, 1 cannot be tested\n"), "\(one.output)")
    #expect(Self.tracesNamed(two.output) == Self.tracesNamed(two.output).sorted())
    let json1 = try await Run.tool("verify", Self.folder, "--host", Self.host, "--json")
    let json3 = try await Run.tool(
      "verify", Self.folder, "--host", Self.host, "--json", "--jobs", "3")
    #expect(json3.output == json1.output)
  }

  @Test("the shards of a folder are disjoint and together hold every trace once")
  func shardsPartition() async throws {
    let all = Self.tracesNamed(
      try await Run.tool("verify", Self.folder, "--host", Self.host).output)
    #expect(all.count == Self.traceCount)
    var seen: [String] = []
    for shard in 1...3 {
      let run = try await Run.tool(
        "verify", Self.folder, "--host", Self.host, "--shard", "\(shard)/3", "--jobs", "2")
      let traces = run.output.split(separator: "\n").dropLast().map { line in
        let path = line.dropFirst(13)
        return String(path[..<(path.range(of: ".ndjson")!.upperBound)])
      }
      #expect(traces.count == [5, 5, 4][shard - 1], "shard \(shard)")
      seen += traces
    }
    #expect(seen.sorted() == all.sorted())
    for bad in ["0/3", "4/3", "a/b", "1/0", "2"] {
      let run = try await Run.tool("verify", Self.folder, "--host", Self.host, "--shard", bad)
      #expect(run.status == 64, "\(bad)")
      #expect(run.errors.hasPrefix("Error: '--shard' takes i/n"), "\(bad): \(run.errors)")
      #expect(run.output == "")
    }
  }

  @Test("--junit writes well-formed XML: a test case per trace, failures and errors with their line")
  func junit() async throws {
    let report = Paths.temporary("report.xml")
    defer { try? FileManager.default.removeItem(atPath: report) }
    let run = try await Run.tool(
      "verify", Self.folder, "--host", Self.host, "--jobs", "2", "--junit", report)
    #expect(run.status == 1)
    let data = try Data(contentsOf: URL(fileURLWithPath: report))
    let text = String(decoding: data, as: UTF8.self)
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #if canImport(FoundationXML) || os(macOS)
      let document = try XMLDocument(data: data)
      let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
      #expect(cases.count == Self.traceCount)
      let names = cases.map { $0.attribute(forName: "name")?.stringValue ?? "" }
      #expect(names.contains("\(Self.folder)/4-<a&b\">.ndjson"))
      #expect(names.contains("\(Self.folder)/1-counter.ndjson"))
      #expect(cases.allSatisfy { $0.attribute(forName: "classname")?.stringValue == "tca-replay.verify" })
      #expect(cases.allSatisfy { Double($0.attribute(forName: "time")?.stringValue ?? "") != nil })
      let failures = try document.nodes(forXPath: "//testcase/failure").compactMap { $0 as? XMLElement }
      #expect(failures.count == 4)
      let outputLines = run.output.split(separator: "\n").map(String.init)
      let diverging = outputLines.first { $0.contains("1-counter.ndjson") }!
      let counterFailure = failures.first {
        $0.parent.flatMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }?
          .hasSuffix("1-counter.ndjson") == true
      }
      #expect(counterFailure?.attribute(forName: "message")?.stringValue == diverging)
      #expect(diverging.contains("\""), "the label holds a quote, which the attribute escapes")
      let errors = try document.nodes(forXPath: "//testcase/error").compactMap { $0 as? XMLElement }
      #expect(errors.count == 1)
      #expect(errors.first?.attribute(forName: "message")?.stringValue?.hasPrefix("cannot test") == true)
    #endif
  }
}
