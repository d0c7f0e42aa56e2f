import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `view --serve` over real sockets: who it answers, what it serves, where it listens, and what
/// a hostile client cannot do to it. The live recording tests are in ServeLiveTests.
@Suite("view --serve")
struct ServeTests {
  /// A finished trace the server reads at once: counter.ndjson, copied.
  static func counterTrace() throws -> String {
    let directory = Scratch.url("serve")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let trace = directory.appendingPathComponent("counter.ndjson").path
    try FileManager.default.copyItem(
      atPath: ToolRunner.packageRoot.appendingPathComponent("Traces/counter.ndjson").path,
      toPath: trace)
    return trace
  }

  @Test("the URL is the first line on standard output, with a 64-digit token, fresh each run")
  func printsURL() throws {
    let trace = try Self.counterTrace()
    let first = try ServedViewer(trace)
    let second = try ServedViewer(trace)
    #expect(first.token != second.token)
    #expect(first.get("/").status == 200)
    // Nothing else on standard output: a script reads the first line and goes.
    #expect(first.process.output == first.url + "\n")
  }

  @Test(
    "a request without the token, or with a wrong one, gets 403",
    arguments: ["/", "/events", "/?token=", "/?token=0", "/?tok=TOKEN", "/nothing"])
  func refusesWithoutToken(_ target: String) throws {
    let server = try ServedViewer(try Self.counterTrace())
    let wrong = String(repeating: "0", count: 64)
    let target = target.replacingOccurrences(of: "TOKEN", with: server.token)
    #expect(server.get(target, withToken: false).status == 403)
    #expect(server.get(target + (target.contains("?") ? "&" : "?") + "token=\(wrong)",
      withToken: false).status == 403)
  }

  @Test("a foreign, missing or repeated Host header gets 403; loopback names on this port are served")
  func checksHost() throws {
    let server = try ServedViewer(try Self.counterTrace())
    let port = server.port
    for host in [
      "evil.example", "evil.example:\(port)", "127.0.0.1:1", "[::1]:\(port)", "localhost.:\(port)",
      "127.0.0.2:\(port)", "0.0.0.0:\(port)", "",
    ] {
      #expect(server.get("/", host: host).status == 403, "Host: \(host)")
      #expect(server.get("/events", host: host).status == 403, "Host: \(host), the stream")
    }
    let twice = server.head(
      "/?token=\(server.token)", headers: ["Host: evil.example"])
    #expect(server.exchange(twice).status == 403, "two Host headers")
    for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "localhost"] {
      #expect(server.get("/", host: host).status == 200, "Host: \(host)")
    }
  }

  @Test(
    "nothing outside the trace is served: other paths get 404 and none of the file",
    arguments: [
      "/../../../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd",
      "/events/../../etc/passwd", "/counter.ndjson", "/index.html", "/?file=/etc/passwd&x=",
      "/..%2f..%2f..%2fetc%2fpasswd",
    ])
  func servesNothingElse(_ path: String) throws {
    let trace = try Self.counterTrace()
    let server = try ServedViewer(trace)
    let answer = server.get(path)
    let traceText = try String(contentsOfFile: trace, encoding: .utf8)
    #expect(answer.status == (path.hasPrefix("/?") ? 200 : 404))
    #expect(!answer.body.contains("root:"))
    #expect(!answer.body.contains(String(traceText.prefix(60))))
  }

  @Test("the page is the viewer with its live script, under a Content-Security-Policy")
  func servesPage() throws {
    let server = try ServedViewer(try Self.counterTrace())
    guard let socket = server.connect() else { throw Failure("cannot connect") }
    defer { close(socket) }
    ServedViewer.sendAll(socket, server.head("/?token=\(server.token)"))
    let answer = String(decoding: ServedViewer.readToEnd(socket), as: UTF8.self)
    #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(answer.contains("\r\nContent-Security-Policy: default-src 'none';"))
    #expect(answer.contains("connect-src 'self'"))
    #expect(answer.contains("new EventSource(\"/events?token=\""))
    #expect(answer.contains("function startViewer() {"))
  }

  @Test("it listens on 127.0.0.1 only: one listening TCP socket, on loopback, none on IPv6")
  func listensOnLoopbackOnly() throws {
    let server = try ServedViewer(try Self.counterTrace())
    let inodes = try Self.socketInodes(of: server.process.pid)
    var listening: [String] = []
    var udpElsewhere: [String] = []
    for table in ["tcp", "tcp6", "udp", "udp6"] {
      let text = try String(contentsOfFile: "/proc/net/\(table)", encoding: .utf8)
      for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        guard fields.count > 9, inodes.contains(String(fields[9])) else { continue }
        if table.hasPrefix("tcp"), fields[3] == "0A" { listening.append("\(table) \(fields[1])") }
        // The server opens no UDP socket, but a child inherits the test runner's open ones
        // (posix_spawn closes none): only one bound beyond loopback would be a listener.
        if table.hasPrefix("udp"), !fields[1].hasPrefix("0100007F:") {
          udpElsewhere.append("\(table) \(fields[1])")
        }
      }
    }
    let hexPort = String(server.port, radix: 16, uppercase: true)
    let padded = String(repeating: "0", count: 4 - hexPort.count) + hexPort
    #expect(listening == ["tcp 0100007F:\(padded)"])
    #expect(udpElsewhere == [])
  }

  static func socketInodes(of pid: pid_t) throws -> Set<String> {
    let directory = "/proc/\(pid)/fd"
    var inodes: Set<String> = []
    for entry in try FileManager.default.contentsOfDirectory(atPath: directory) {
      guard let link = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "\(directory)/\(entry)"), link.hasPrefix("socket:[")
      else { continue }
      inodes.insert(String(link.dropFirst(8).dropLast()))
    }
    return inodes
  }

  @Test(
    "a malformed request gets 400, and the server goes on answering",
    arguments: [
      "GARBAGE\r\n\r\n", "GET /\r\n\r\n", "GET / HTTP/2.0\r\nHost: localhost\r\n\r\n",
      "GET http://evil.example/ HTTP/1.1\r\nHost: localhost\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: localhost\r\n folded\r\n\r\n",
      "GET / HTTP/1.1\r\nno colon here\r\n\r\n", "G\u{0}T / HTTP/1.1\r\n\r\n",
    ])
  func refusesMalformed(_ request: String) throws {
    let server = try ServedViewer(try Self.counterTrace())
    let answer = server.exchange(Array(request.utf8))
    #expect(answer.status == 400)
    // Bytes that are not UTF-8 in the head.
    let notUTF8: [UInt8] = [0x47, 0x45, 0x54, 0x20, 0x2F, 0xFF, 0x0D, 0x0A, 0x0D, 0x0A]
    #expect(server.exchange(notUTF8).status == 400)
    #expect(server.get("/").status == 200)
  }

  @Test("a request head over 16 KiB gets 431, and a hundred 1 MB heads leave memory bounded")
  func refusesHugeHeads() throws {
    let server = try ServedViewer(try Self.counterTrace())
    #expect(server.get("/").status == 200)
    let before = server.residentBytes
    let huge = server.head("/?token=\(server.token)", headers: [
      "X-Padding: " + String(repeating: "a", count: 1 << 20)
    ])
    for _ in 0..<100 {
      #expect(server.exchange(huge).status == 431)
    }
    let growth = server.residentBytes - before
    #expect(growth < 32 << 20, "resident memory grew by \(growth) bytes")
    #expect(server.get("/").status == 200)
  }

  @Test("the stream sends every event from the header, and resumes after Last-Event-ID")
  func resumesAfterLastEventID() throws {
    let server = try ServedViewer(try Self.counterTrace())
    let whole = try #require(EventStreamClient(server))
    #expect(whole.read { $0.last?.kind == "end" })
    #expect(whole.status == 200)
    #expect(whole.events.first?.kind == "header")
    #expect(whole.stepIndices == Array(0..<243))
    // Resuming after step 10, and after an effect event that followed a step.
    let resumed = try #require(EventStreamClient(server, lastEventID: "10"))
    #expect(resumed.read { $0.last?.kind == "end" })
    #expect(resumed.events == Array(whole.events.drop { $0.id != "10" }.dropFirst()))
    let effect = try #require(whole.events.first { $0.kind == "effect" })
    let afterEffect = try #require(EventStreamClient(server, lastEventID: effect.id))
    #expect(afterEffect.read { $0.last?.kind == "end" })
    #expect(afterEffect.events == Array(whole.events.drop { $0 != effect }.dropFirst()))
  }

  @Test("a gap's lost steps arrive as one stand-in step, numbered as the last, that sets the state")
  func gapStandIn() throws {
    let trace = ToolRunner.packageRoot.appendingPathComponent(
      "Tests/ToolTests/Fixtures/counter-gap.ndjson").path
    let server = try ServedViewer(trace)
    let client = try #require(EventStreamClient(server))
    #expect(client.read { $0.last?.kind == "end" })
    #expect(Array(client.stepIndices.prefix(5)) == [0, 1, 2, 5, 6])
    let standIn = try #require(client.events.first { $0.id == "5" })
    #expect(standIn.data.contains(#""label":"(steps 3…5 not read: session.ndjson: cannot write"#))
    #expect(standIn.data.contains(
      #""patch":[{"op":"replace","path":"","value":{"count":2,"isLoading":false,"#))
    #expect(standIn.data.contains(#""lost":true"#))
  }

  @Test("a version-1 trace's effect starts arrive as effect events")
  func versionOneEffects() throws {
    let trace = ToolRunner.packageRoot.appendingPathComponent(
      "Tests/ToolTests/Fixtures/counter-v1.ndjson").path
    let server = try ServedViewer(trace)
    let client = try #require(EventStreamClient(server))
    #expect(client.read { $0.last?.kind == "end" })
    let effects = client.events.filter { $0.kind == "effect" }
    #expect(effects.filter { $0.data.contains(#""event":"started""#) }.count == 27)
    #expect(effects.count == 54)
  }

  @Test("--port without --serve, and --serve with -o or --steps, are usage errors (64)")
  func usage() throws {
    let trace = try Self.counterTrace()
    #expect(try ToolRunner.run(["view", trace, "--port", "8000"]).status == 64)
    #expect(try ToolRunner.run(["view", trace, "--serve", "-o", "x.html"]).status == 64)
    #expect(try ToolRunner.run(["view", trace, "--serve", "--steps", "1...2"]).status == 64)
    #expect(try ToolRunner.run(["view", trace, "--serve", "--port", "70000"]).status == 64)
  }

  @Test("a port already in use is an error that says so, with exit 69")
  func portInUse() throws {
    let trace = try Self.counterTrace()
    let server = try ServedViewer(trace)
    let second = try ToolRunner.run(["view", trace, "--serve", "--port", "\(server.port)"])
    #expect(second.status == 69)
    #expect(second.errors.hasPrefix("Error: cannot listen on 127.0.0.1:\(server.port): "))
    #expect(second.output == "")
  }

  @Test("SIGINT and SIGTERM stop the server with exit 0")
  func stopsOnSignal() throws {
    for signalNumber in [SIGINT, SIGTERM] {
      let server = try ServedViewer(try Self.counterTrace())
      kill(server.process.pid, signalNumber)
      let result = server.process.waitForExit(timeLimit: 60)
      #expect(result.status == 0 && result.signal == nil && !result.timedOut)
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
