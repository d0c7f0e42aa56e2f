#if canImport(Glibc)
  import Glibc
#endif

/// Who the served viewer answers: a request to this port on a loopback name, carrying the
/// session's token, as Jupyter's server asks.
///
/// The token keeps out other local users and any web page that guesses the port (it cannot read
/// the URL the tool printed); the `Host` check keeps out DNS rebinding, where an attacker's name
/// is made to resolve to 127.0.0.1 so that their page can read ours as same-origin.
struct ServeAccess: Sendable {
  /// 64 hexadecimal digits: 256 bits from `/dev/urandom`.
  let token: String
  /// The port listened on, which a `Host` header's port must be.
  let port: UInt16

  /// Why a request is refused, or `nil` when it may be answered.
  enum Refusal: Equatable {
    /// The `Host` header is missing, repeated, or names something other than this listener.
    case foreignHost
    /// The `token` parameter is missing or wrong.
    case badToken
  }

  /// Whether `request` may be answered: its `Host` first, then its token.
  func check(_ request: HTTPRequest) -> Refusal? {
    guard let host = request.header("host"), isLoopback(host: host) else { return .foreignHost }
    guard let given = request.query["token"], Self.constantTimeEqual(given, token) else {
      return .badToken
    }
    return nil
  }

  /// `127.0.0.1` or `localhost`, with this port or none. Not `[::1]`: nothing listens there.
  func isLoopback(host: String) -> Bool {
    let host = host.lowercased()
    for name in ["127.0.0.1", "localhost"] {
      if host == name || host == "\(name):\(port)" { return true }
    }
    return false
  }

  /// Compares every byte, so the time taken does not tell how much of a guess was right.
  static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
  }

  /// A fresh token from `/dev/urandom`, or `nil` when it cannot be read.
  static func randomToken() -> String? {
    let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 32)
    var filled = 0
    while filled < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress! + filled, $0.count - filled)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      filled += count
    }
    let digits = Array("0123456789abcdef".utf8)
    return String(
      decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
  }
}
