import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `view --serve` following a real recording: a `record-traces` child records a ledger into
/// rotated segments while the server, started first, streams each step to a client.
@Suite("view --serve, live")
struct ServeLiveTests {
  static let recorder = FollowTests.recorder

  @Test("a client receives every step of a live recording once, in order, through rotation")
  func followsRotation() throws {
    let trace = try FollowTests.scratch() + "/ledger.ndjson"
    let server = try ServedViewer(trace)
    let client = try #require(EventStreamClient(server))
    #expect(client.read { _ in client.status != 0 } && client.status == 200)
    // About 15 steps a segment: some twenty rotations, every segment kept.
    let recording = try ChildProcess.run(
      Self.recorder, ["--ledger-rotating", "300", "12000", "100", trace], timeLimit: 120)
    #expect(recording.status == 0)
    #expect(client.read { $0.last?.kind == "end" })
    let segments = try FileManager.default.contentsOfDirectory(
      atPath: (trace as NSString).deletingLastPathComponent)
    #expect(segments.count >= 3, "at least two rotations: \(segments)")
    #expect(client.events.first?.kind == "header")
    #expect(client.stepIndices == Array(0..<300))
    #expect(!client.events.contains { $0.kind == "step" && $0.data.contains("\"lost\"") })
  }

  @Test("steps rotated away before the server read them arrive as stand-ins, never dropped silently")
  func rotatedAway() throws {
    let trace = try FollowTests.scratch() + "/ledger.ndjson"
    let server = try ServedViewer(trace)
    let client = try #require(EventStreamClient(server))
    #expect(client.read { _ in client.status != 0 })
    // Segments of about 15 steps, two kept: the recorder outruns a feed that polls.
    let recording = try ChildProcess.run(
      Self.recorder, ["--ledger-rotating", "300", "2000", "2", trace], timeLimit: 120)
    #expect(recording.status == 0)
    #expect(client.read { $0.last?.kind == "end" })
    var covered: [Int] = []
    for event in client.events where event.kind == "step" {
      let index = try #require(Int(event.id))
      if event.data.contains(#""lost":true"#) {
        let range = try #require(event.data.firstMatch(of: /\(steps (\d+)…(\d+) not read/))
        #expect(Int(range.2) == index)
        covered += Array(Int(range.1)!...index)
      } else {
        covered.append(index)
      }
    }
    #expect(covered == Array(0..<300))
  }

  @Test("the crash record arrives live, after the last step, and ends the stream")
  func showsCrash() throws {
    let trace = try FollowTests.scratch() + "/ledger.ndjson"
    let server = try ServedViewer(trace)
    let client = try #require(EventStreamClient(server))
    #expect(client.read { _ in client.status != 0 })
    let recording = try ChildProcess.run(
      Self.recorder, ["--ledger-rotating", "40", "12000", "100", trace, "--trap"], timeLimit: 120)
    #expect(recording.signal != nil, "the recorder trapped")
    #expect(client.read { $0.last?.kind == "crash" })
    #expect(client.stepIndices == Array(0..<40))
    let crash = try #require(client.events.last)
    #expect(crash.id == "39.1")
    #expect(crash.data.contains(#""kind":"crash","step":40"#))
    // Nothing follows: the server closed the stream.
    #expect(!client.read { $0.count > client.events.count })
  }

  @Test("a second client that joins mid-recording gets the same events as the first")
  func lateClient() throws {
    let trace = try FollowTests.scratch() + "/ledger.ndjson"
    let server = try ServedViewer(trace)
    let early = try #require(EventStreamClient(server))
    #expect(early.read { _ in early.status != 0 })
    let recorder = try BackgroundProcess(
      Self.recorder, ["--ledger-rotating", "300", "12000", "100", trace, "--rate", "300"])
    #expect(early.read { $0.contains { $0.id == "100" } })
    let late = try #require(EventStreamClient(server))
    #expect(late.read { $0.last?.kind == "end" })
    #expect(early.read { $0.last?.kind == "end" })
    #expect(recorder.waitForExit().status == 0)
    #expect(late.events == early.events)
  }
}

/// Clients that try to hold the server: slowloris heads and more connections than it takes.
@Suite("view --serve, held connections", .tags(.slow), .slowSuite)
struct ServeHoldTests {
  @Test("idle connections are cut after 5 s, those past 64 are refused at once, and the server goes on")
  func slowloris() throws {
    let server = try ServedViewer(try ServeTests.counterTrace())
    // Each sends half a request line and then nothing.
    var idle: [Int32] = []
    for _ in 0..<100 {
      guard let socket = server.connect() else { continue }
      ServedViewer.sendAll(socket, Array("GET /?tok".utf8))
      idle.append(socket)
    }
    defer { for socket in idle { close(socket) } }
    #expect(idle.count == 100)
    var statuses: [Int: Int] = [:]
    // One hang guard for all: a server that never cuts them fails here in a minute.
    let deadline = Date(timeIntervalSinceNow: 60)
    for socket in idle {
      let answer = String(
        decoding: ServedViewer.readToEnd(socket, deadline: deadline), as: UTF8.self)
      let status = Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
      statuses[status, default: 0] += 1
    }
    #expect(statuses == [408: 64, 503: 36])
    #expect(server.get("/").status == 200)
  }

  @Test("a client that reads nothing holds back neither the feed nor another client")
  func stuckClient() throws {
    let trace = try FollowTests.scratch() + "/ledger.ndjson"
    let server = try ServedViewer(trace)
    // A receive buffer of a few KB that is never read: the server's writes to it block once
    // its send buffer fills, some megabytes into the session.
    let stuck = try #require(server.connect())
    defer { close(stuck) }
    var small: Int32 = 4096
    setsockopt(stuck, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    ServedViewer.sendAll(stuck, server.head("/events?token=\(server.token)"))
    let reader = try #require(EventStreamClient(server))
    let recording = try ChildProcess.run(
      ServeLiveTests.recorder, ["--ledger-rotating", "8000", "4000000", "100", trace],
      timeLimit: 300)
    #expect(recording.status == 0)
    #expect(reader.read { $0.last?.kind == "end" })
    #expect(reader.stepIndices == Array(0..<8000))
    let late = try #require(EventStreamClient(server))
    #expect(late.read { $0.last?.kind == "end" })
    #expect(late.stepIndices == Array(0..<8000))
  }
}
