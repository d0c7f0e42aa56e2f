import Foundation
import TestSupport
import Testing

/// `view --serve --host`: the page's what-ifs over HTTP, on a counter session recorded in this
/// run, with the examples' replay host.
@Suite("view --serve --host: what if")
struct ServeWhatIfTests {
  static let host = ToolRunner.executable.deletingLastPathComponent()
    .appendingPathComponent("example-replay-host").path

  /// A counter session recorded now by today's recorder.
  static func freshCounter() throws -> String {
    let folder = Scratch.url("serve-what-if").path
    let run = try ChildProcess.run(
      ToolRunner.executable.deletingLastPathComponent().appendingPathComponent("record-traces").path,
      [folder])
    #expect(run.status == 0, "\(String(decoding: run.errors, as: UTF8.self))")
    return folder + "/counter.ndjson"
  }

  @Test("a skip answers what the stepper prints; the new history downloads as a trace")
  func skipAndDownload() throws {
    let server = try ServedViewer(try Self.freshCounter(), ["--host", Self.host])
    let report = server.get("/what-if?do=skip%200")
    #expect(report.status == 200)
    #expect(report.body.contains("It parts from the recording at step 1"), "\(report.body)")
    let trace = server.get("/what-if.ndjson?do=edit%200%20.decrementButtonTapped")
    #expect(trace.status == 200)
    let lines = trace.body.split(separator: "\n")
    #expect(lines.first?.contains(#""kind":"header""#) == true)
    #expect(lines.dropFirst().first?.contains(#""label":".decrementButtonTapped""#) == true)
  }

  @Test("what-ifs need the token, a known command, and --host")
  func refusals() throws {
    let trace = try Self.freshCounter()
    let server = try ServedViewer(trace, ["--host", Self.host])
    #expect(server.get("/what-if?do=skip%200", withToken: false).status == 403)
    #expect(server.get("/what-if?do=skip%200", host: "evil.example").status == 403)
    let unknown = server.get("/what-if?do=rm%20-rf")
    #expect(unknown.status == 400)
    #expect(unknown.body.contains("skip <step>"))
    #expect(server.get("/what-if?do=skip%2099999").status == 400)
    let plain = try ServedViewer(trace)
    #expect(plain.get("/what-if?do=skip%200").status == 404)
  }

  @Test("one step's blame names, for each path it changed, the file and line of the reducer that wrote it")
  func blameOfOneStep() throws {
    let trace = try Self.freshCounter()
    // The line is found in the example's source, not by the tool.
    let source = try String(contentsOfFile: "Examples/Counter/CounterFeature.swift", encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let increment = try #require(lines.firstIndex { $0.contains("case .incrementButtonTapped:") })
    let write = try #require(lines[increment...].firstIndex { $0.contains("state.count += 1") })
    let records = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    let step = try #require(
      records.dropFirst().firstIndex { $0.contains(#""label":".incrementButtonTapped""#) })
      - 1
    let server = try ServedViewer(trace, ["--host", Self.host])
    let answer = server.get("/blame?step=\(step)")
    #expect(answer.status == 200, "\(answer.body)")
    let blame = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
    let changes = try #require(blame?["changes"] as? [[String: Any]])
    let count = try #require(changes.first { $0["path"] as? String == "/count" })
    let writers = try #require(count["by"] as? [String])
    #expect(writers.count == 1)
    #expect(writers.first?.hasPrefix("CounterFeature.swift:\(write + 1) ") == true, "\(writers)")
  }

  @Test("blame needs the token, a step the trace has, --host, and a host that answers")
  func blameRefusals() throws {
    let trace = try Self.freshCounter()
    let server = try ServedViewer(trace, ["--host", Self.host])
    #expect(server.get("/blame?step=1", withToken: false).status == 403)
    for step in ["99999", "-1", "x", ""] {
      let answer = server.get("/blame?step=\(step)")
      #expect(answer.status == 400, "\(step)")
      #expect(answer.body.hasPrefix("Blame: no step \(step) in "), "\(answer.body)")
    }
    #expect(try ServedViewer(trace).get("/blame?step=1").status == 404)
    // A host that leaves before it says hello: one line, naming the host.
    let leaving = try ServedViewer(trace, ["--host", "echo nonsense; exit 3"])
    let answer = leaving.get("/blame?step=1")
    #expect(answer.status == 502)
    #expect(answer.body.hasPrefix("Blame: the replay host 'echo nonsense; exit 3' "), "\(answer.body)")
    #expect(answer.body.split(separator: "\n").count == 1, "\(answer.body)")
  }

  @Test("the served what-ifs start the host with --host-log: its standard error lands there")
  func hostLog() throws {
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("serve-host-log-\(UUID().uuidString).log").path
    defer { try? FileManager.default.removeItem(atPath: log) }
    // Written before the host's hello, which the what-if waits for.
    let host = "sh -c \"echo served-host-was-here >&2; exec '\(Self.host)'\""
    let server = try ServedViewer(try Self.freshCounter(), ["--host", host, "--host-log", log])
    let answer = server.get("/what-if?do=skip%200")
    #expect(answer.status == 200, "\(answer.body)")
    let logged = try String(contentsOfFile: log, encoding: .utf8)
    #expect(logged.contains("served-host-was-here"), "\(logged)")
  }

  @Test("the served what-ifs give up on a silent host after --timeout, not the default 30 s")
  func hostTimeout() throws {
    // A hostile host: it never says hello.
    let server = try ServedViewer(
      try Self.freshCounter(), ["--host", "sleep 600", "--timeout", "0.25"])
    let answer = server.get("/what-if?do=skip%200")
    #expect(answer.status == 500)
    #expect(answer.body.contains("said nothing for 0.25 s"), "\(answer.body)")
  }

  @Test("without --serve, view refuses every host option; without --host, --timeout is refused")
  func hostOptionsNeedServeAndHost() throws {
    let trace = try Self.freshCounter()
    for options in [["--host", "true"], ["--timeout", "1"], ["--host-log", "/dev/null"]] {
      let run = try ToolRunner.run(["view", trace] + options)
      #expect(run.status == 64)
      #expect(run.errors.contains("'\(options[0])' needs '--serve'"), "\(run.errors)")
    }
    let served = try BackgroundProcess(
      ToolRunner.executable.path, ["view", trace, "--serve", "--timeout", "1"])
    // In the background: were the option ignored, the server would serve until stopped.
    #expect(served.waitForExit(timeLimit: 60).status == 64)
    #expect(served.errors.contains("'--timeout' needs '--host'"), "\(served.errors)")
  }
}
