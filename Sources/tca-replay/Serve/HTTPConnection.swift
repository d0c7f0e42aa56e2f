#if canImport(Glibc)
  import Glibc
#endif

/// One accepted socket: reads a request head within a size and a time limit, writes responses.
struct HTTPConnection {
  let descriptor: Int32

  /// What reading a request head gave.
  enum Head {
    case request([UInt8])
    /// More than the limit before the blank line: answered 431.
    case tooLarge
    /// The limit of time passed first (a slowloris client): closed, answered 408.
    case timedOut
    /// The client closed or the socket failed.
    case closed
  }

  /// Reads up to the blank line that ends a head, at most `limit` bytes and `seconds` in all.
  func readHead(limit: Int, seconds: Double) -> Head {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let deadline = Self.now() + seconds
    while true {
      let remaining = deadline - Self.now()
      guard remaining > 0 else { return .timedOut }
      var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&waiting, 1, Int32(min(remaining * 1000, 60_000)) + 1)
      if ready < 0, errno == EINTR { continue }
      guard ready >= 0 else { return .closed }
      if ready == 0 { continue }
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return .closed }
      // Only the new bytes and the three before them can hold the end of the head.
      let from = max(0, buffer.count - 3)
      buffer.append(contentsOf: chunk[0..<count])
      if let end = Self.endOfHead(buffer, from: from) {
        return end <= limit ? .request(Array(buffer[..<end])) : .tooLarge
      }
      if buffer.count > limit { return .tooLarge }
    }
  }

  /// Where the head ends (after `\r\n\r\n`, or `\n\n`), searching from `from`.
  private static func endOfHead(_ bytes: [UInt8], from: Int) -> Int? {
    var index = from
    while index < bytes.count {
      if bytes[index] == 10 {
        if index + 1 < bytes.count, bytes[index + 1] == 10 { return index + 2 }
        if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 {
          return index + 3
        }
      }
      index += 1
    }
    return nil
  }

  /// Writes all of `bytes`; `false` when the client has gone or stalled past the send timeout.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// A whole response with `Connection: close`, and the headers every answer carries.
  @discardableResult
  func respond(
    _ status: Int, _ reason: String, contentType: String = "text/plain; charset=utf-8",
    extraHeaders: [String] = [], body: [UInt8]
  ) -> Bool {
    var head = "HTTP/1.1 \(status) \(reason)\r\n"
    for line in
      [
        "Content-Type: \(contentType)", "Content-Length: \(body.count)", "Connection: close",
        "Cache-Control: no-store", "X-Content-Type-Options: nosniff",
        "Referrer-Policy: no-referrer",
      ] + extraHeaders
    {
      head += line + "\r\n"
    }
    head += "\r\n"
    return send(Array(head.utf8) + body)
  }

  /// Sets how long one `send` may block on a client that does not read.
  func setSendTimeout(seconds: Int) {
    var limit = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  }

  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
