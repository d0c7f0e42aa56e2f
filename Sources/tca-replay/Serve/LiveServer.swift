import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The served viewer's HTTP server, over POSIX sockets: it listens on 127.0.0.1 only and answers
/// two paths, the page (`/`) and its event stream (`/events`), to requests that pass
/// ``ServeAccess``.
///
/// ```swift
/// let server = try LiveServer(port: 0, access: …, feed: feed, page: bytes)
/// print(server.url)        // http://127.0.0.1:41234/?token=…
/// server.run()             // until stop()
/// ```
///
/// Each connection has a thread of its own, at most ``Limits/connections`` at once (more are
/// answered 503 and closed), so a slow client blocks only itself. A request head must arrive
/// whole within ``Limits/headSeconds`` and ``Limits/headBytes``; the stream's writes give up on
/// a client that reads nothing for ``Limits/sendSeconds``.
// unchecked: `active` and `stopping` are read and written only under `lock`; the rest are lets
final class LiveServer: @unchecked Sendable {
  /// The bounds that keep a hostile or broken client from holding the server.
  struct Limits: Sendable {
    var connections = 64
    var headBytes = 16 * 1024
    var headSeconds = 5.0
    var sendSeconds = 30
    /// How often an idle stream sends a comment line, which finds clients that have gone.
    var keepAliveSeconds = 15.0
  }

  /// Why the server could not start.
  struct Failure: Error {
    var message: String
  }

  let access: ServeAccess
  let limits: Limits
  private let feed: LiveFeed
  private let page: [UInt8]
  /// With `--host`: the page's what-ifs.
  private let whatIf: ServedWhatIf?
  private let listener: Int32
  private let wake: (read: Int32, write: Int32)
  private let lock = NSLock()
  private var active = 0
  private var stopping = false

  /// The page's address, token included: what the tool prints first.
  var url: String { "http://127.0.0.1:\(access.port)/?token=\(access.token)" }

  /// Listens on 127.0.0.1:`port` (0: a port the system picks).
  init(
    port: UInt16, token: String, feed: LiveFeed, page: [UInt8], whatIf: ServedWhatIf? = nil,
    limits: Limits = Limits()
  ) throws(Failure) {
    self.whatIf = whatIf
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { throw Failure(message: "cannot open a socket: \(Self.why())") }
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    // Loopback only: no other machine can connect, whatever the firewall says.
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 128) == 0 else {
      let reason = Self.why()
      close(listener)
      throw Failure(message: "cannot listen on 127.0.0.1:\(port): \(reason)")
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      close(listener)
      throw Failure(message: "cannot make a pipe: \(Self.why())")
    }
    for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    self.listener = listener
    self.wake = (pipeEnds[0], pipeEnds[1])
    self.access = ServeAccess(token: token, port: UInt16(bigEndian: actual.sin_port))
    self.feed = feed
    self.page = page
    self.limits = limits
  }

  deinit {
    close(listener)
    close(wake.read)
    close(wake.write)
  }

  /// The descriptor a signal handler writes a byte to, to stop ``run()`` (write is
  /// async-signal-safe; nothing else is needed).
  var wakeDescriptor: Int32 { wake.write }

  /// Accepts connections until ``stop()`` or a byte on ``wakeDescriptor``.
  func run() {
    while true {
      var waiting = [
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&waiting, 2, -1)
      if ready < 0, errno == EINTR { continue }
      if ready < 0 || waiting[1].revents != 0 { break }
      let client = accept(listener, nil, nil)
      guard client >= 0 else { continue }
      _ = fcntl(client, F_SETFD, FD_CLOEXEC)
      let connection = HTTPConnection(descriptor: client)
      lock.lock()
      let admitted = active < limits.connections
      if admitted { active += 1 }
      lock.unlock()
      guard admitted else {
        // A full house answers at once rather than queueing behind idle clients.
        connection.setSendTimeout(seconds: 1)
        connection.respond(503, "Service Unavailable", body: Array("Too many connections\n".utf8))
        close(client)
        continue
      }
      Thread.detachNewThread { [self] in
        serve(connection)
        close(client)
        lock.lock()
        active -= 1
        lock.unlock()
      }
    }
    lock.lock()
    stopping = true
    lock.unlock()
    feed.stop()
  }

  /// Stops ``run()`` from another thread.
  func stop() {
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
  }

  /// How many connections are open now.
  var openConnections: Int {
    lock.lock()
    defer { lock.unlock() }
    return active
  }

  private var isStopping: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopping
  }

  /// Answers one request: 400 malformed, 431 too large, 403 foreign host or bad token, 405 not
  /// GET, 404 any path but the page's, the stream's and, with a host, the what-ifs' and blame's.
  private func serve(_ connection: HTTPConnection) {
    connection.setSendTimeout(seconds: limits.sendSeconds)
    let text = { (line: String) in Array((line + "\n").utf8) }
    let request: HTTPRequest
    switch connection.readHead(limit: limits.headBytes, seconds: limits.headSeconds) {
    case .closed: return
    case .timedOut:
      connection.respond(408, "Request Timeout", body: text("The request took too long"))
      return
    case .tooLarge:
      connection.respond(
        431, "Request Header Fields Too Large", body: text("The request head is too large"))
      return
    case .request(let head):
      guard let parsed = HTTPRequest(parsing: head) else {
        connection.respond(400, "Bad Request", body: text("Not an HTTP/1.x request"))
        return
      }
      request = parsed
    }
    switch access.check(request) {
    case .foreignHost:
      connection.respond(403, "Forbidden", body: text("Forbidden: not a loopback Host"))
      return
    case .badToken:
      connection.respond(
        403, "Forbidden", body: text("Forbidden: open the URL tca-replay printed, with its token"))
      return
    case nil: break
    }
    guard request.method == "GET" else {
      connection.respond(
        405, "Method Not Allowed", extraHeaders: ["Allow: GET"], body: text("Only GET"))
      return
    }
    switch request.path {
    case "/":
      connection.respond(
        200, "OK", contentType: "text/html; charset=utf-8",
        extraHeaders: ["Content-Security-Policy: \(ViewerPage.liveContentSecurityPolicy)"],
        body: page)
    case "/events":
      stream(to: connection, resumingAfter: request.header("last-event-id"))
    case "/what-if", "/what-if.ndjson":
      guard let whatIf else {
        connection.respond(404, "Not Found", body: text("Not found: serve with --host for what-ifs"))
        return
      }
      let answer = whatIf.answer(request.query["do"] ?? "", asTrace: request.path.hasSuffix(".ndjson"))
      connection.respond(
        answer.status, answer.reason, contentType: answer.contentType, extraHeaders: answer.headers,
        body: answer.body)
    case "/blame":
      guard let whatIf else {
        connection.respond(404, "Not Found", body: text("Not found: serve with --host to blame"))
        return
      }
      let answer = whatIf.blame(request.query["step"] ?? "")
      connection.respond(
        answer.status, answer.reason, contentType: answer.contentType, body: answer.body)
    default:
      connection.respond(404, "Not Found", body: text("Not found"))
    }
  }

  /// The event stream: every event after `lastEventID` (all of them without one), then each
  /// new one as the feed publishes it, until the feed ends or the client goes.
  private func stream(to connection: HTTPConnection, resumingAfter lastEventID: String?) {
    var cursor = lastEventID.flatMap { feed.position(afterEventID: $0) } ?? 0
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
      + "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\nretry: 1000\n\n"
    guard connection.send(Array(head.utf8)) else { return }
    while !isStopping {
      let batch = feed.wait(after: cursor, timeout: limits.keepAliveSeconds)
      var bytes: [UInt8] = []
      for event in batch.events {
        bytes.append(contentsOf: event)
        // A long backlog goes in pieces, so one client's catch-up holds little memory.
        if bytes.count >= 1 << 18 {
          guard connection.send(bytes) else { return }
          bytes.removeAll(keepingCapacity: true)
        }
      }
      if batch.events.isEmpty, !batch.isFinal { bytes = Array(": keep-alive\n\n".utf8) }
      guard connection.send(bytes) else { return }
      cursor = batch.next
      if batch.isFinal { return }
    }
  }

  private static func why() -> String { String(cString: strerror(errno)) }
}
