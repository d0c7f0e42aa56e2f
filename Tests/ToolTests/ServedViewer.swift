import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `tca-replay view <trace> --serve` running in the background, and a raw-socket client of it:
/// the tests speak HTTP by hand so that they can send what no HTTP library would.
final class ServedViewer {
  let process: BackgroundProcess
  let url: String
  let port: UInt16
  let token: String

  /// Starts the server on `trace` and reads the URL it prints first.
  init(_ trace: String, _ options: [String] = []) throws {
    process = try BackgroundProcess(
      ToolRunner.executable.path, ["view", trace, "--serve"] + options)
    #expect(process.wait(until: { $0.output.contains("\n") }, timeLimit: 60))
    url = String(process.output.split(separator: "\n").first ?? "")
    let pattern = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})/
    let match = try #require(url.wholeMatch(of: pattern))
    port = try #require(UInt16(match.1))
    token = String(match.2)
  }

  deinit {
    kill(process.pid, SIGTERM)
    _ = process.waitForExit(timeLimit: 30)
  }

  /// A connected socket to the server; `nil` when it cannot connect.
  func connect() -> Int32? {
    // Close-on-exec, so that servers other tests start meanwhile do not inherit it.
    let socket = Glibc.socket(
      AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      return nil
    }
    return socket
  }

  /// `GET <target>` with these headers (a `Host` of 127.0.0.1:port unless given), as raw bytes.
  func head(_ target: String, host: String? = nil, headers: [String] = []) -> [UInt8] {
    let host = host.map { $0.isEmpty ? [] : ["Host: \($0)"] } ?? ["Host: 127.0.0.1:\(port)"]
    let lines = ["GET \(target) HTTP/1.1"] + host + headers
    return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
  }

  /// Sends `bytes` on a fresh connection and reads the answer to its end: the status (0 when
  /// none came) and everything after the head.
  func exchange(_ bytes: [UInt8]) -> (status: Int, body: String) {
    guard let socket = connect() else { return (0, "") }
    defer { close(socket) }
    Self.sendAll(socket, bytes)
    let answer = String(decoding: Self.readToEnd(socket), as: UTF8.self)
    let status = answer.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    let body = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
    return (status, body)
  }

  /// `GET <target>` with the token appended when `withToken`.
  func get(_ path: String, withToken: Bool = true, host: String? = nil) -> (
    status: Int, body: String
  ) {
    let target = withToken ? path + (path.contains("?") ? "&" : "?") + "token=\(token)" : path
    return exchange(head(target, host: host))
  }

  static func sendAll(_ socket: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes {
        send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  /// Everything until the server closes, or `deadline` passes (a hang guard).
  static func readToEnd(_ socket: Int32, deadline: Date = Date(timeIntervalSinceNow: 60))
    -> [UInt8]
  {
    var bytes: [UInt8] = []
    let reader = StreamReader(socket: socket)
    while let chunk = reader.read(timeLimit: max(0.01, deadline.timeIntervalSinceNow)) {
      bytes += chunk
    }
    return bytes
  }

  /// The server's resident memory, in bytes, from /proc.
  var residentBytes: Int {
    let status = (try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
  }
}

/// Reads a socket in chunks, each wait bounded.
struct StreamReader {
  let socket: Int32

  /// The next bytes; `nil` at the end, on an error, or after `timeLimit` seconds of silence.
  func read(timeLimit: Double) -> [UInt8]? {
    var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    guard poll(&waiting, 1, Int32(timeLimit * 1000)) > 0 else { return nil }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
    guard count > 0 else { return nil }
    return Array(chunk[0..<count])
  }
}

/// A Server-Sent Events client: reads events until one satisfies a condition.
final class EventStreamClient {
  struct Event: Equatable {
    var kind: String
    var id: String
    var data: String
  }

  let socket: Int32
  private var buffer = ""
  private(set) var events: [Event] = []
  private(set) var status = 0

  /// Opens `/events` with the token, and `Last-Event-ID` when given.
  init?(_ server: ServedViewer, lastEventID: String? = nil) {
    guard let socket = server.connect() else { return nil }
    self.socket = socket
    let headers = lastEventID.map { ["Last-Event-ID: \($0)"] } ?? []
    ServedViewer.sendAll(socket, server.head("/events?token=\(server.token)", headers: headers))
  }

  deinit { close(socket) }

  /// Reads until `condition` holds of the events so far, or the stream ends; `false` then, or
  /// after 120 s of silence (a hang guard).
  @discardableResult
  func read(until condition: ([Event]) -> Bool) -> Bool {
    let reader = StreamReader(socket: socket)
    while !condition(events) {
      guard let chunk = reader.read(timeLimit: 120) else { return false }
      buffer += String(decoding: chunk, as: UTF8.self)
      parse()
    }
    return true
  }

  private func parse() {
    if status == 0, let end = buffer.range(of: "\r\n\r\n") {
      status = Int(buffer.split(separator: " ").dropFirst().first ?? "") ?? -1
      buffer = String(buffer[end.upperBound...])
    }
    guard status != 0 else { return }
    while let end = buffer.range(of: "\n\n") {
      let block = buffer[..<end.lowerBound]
      buffer = String(buffer[end.upperBound...])
      var event = Event(kind: "message", id: "", data: "")
      var isEvent = false
      for line in block.split(separator: "\n") {
        if line.hasPrefix("event: ") { event.kind = String(line.dropFirst(7)); isEvent = true }
        if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
        if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)) }
      }
      if isEvent { events.append(event) }
    }
  }

  /// The step indices received, in order.
  var stepIndices: [Int] {
    events.filter { $0.kind == "step" }.compactMap { Int($0.id) }
  }
}
