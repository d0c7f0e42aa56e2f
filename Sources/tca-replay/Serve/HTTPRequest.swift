#if canImport(Glibc)
  import Glibc
#endif

/// The head of an HTTP/1.x request, as the served viewer reads it: the request line and the
/// header fields, nothing else (the viewer takes no request bodies).
///
/// ```swift
/// let head = "GET /?token=ab HTTP/1.1\r\nHost: localhost\r\n\r\n"
/// let request = HTTPRequest(parsing: Array(head.utf8))
/// request?.path == "/"; request?.query["token"] == "ab"; request?.header("host") == "localhost"
/// ```
struct HTTPRequest: Equatable {
  var method: String
  /// The target's path, as sent (not percent-decoded: no path maps to a file).
  var path: String
  /// The query's parameters, percent-decoded; the first of a repeated name.
  var query: [String: String]
  /// The header fields in order, names lowercased, values trimmed.
  var headers: [(name: String, value: String)]

  static func == (a: Self, b: Self) -> Bool {
    a.method == b.method && a.path == b.path && a.query == b.query
      && a.headers.elementsEqual(b.headers) { $0 == $1 }
  }

  /// The values of every header field called `name` (lowercase).
  func headers(_ name: String) -> [String] {
    headers.filter { $0.name == name }.map(\.value)
  }

  /// The value of the header field `name` (lowercase), when it is sent once.
  func header(_ name: String) -> String? {
    let values = headers(name)
    return values.count == 1 ? values[0] : nil
  }

  /// Parses a request head (through the blank line), or `nil` when it is not HTTP/1.x: a
  /// request line of three parts, an origin-form target, `name: value` fields.
  init?(parsing head: [UInt8]) {
    guard let text = String(validating: head, as: UTF8.self) else { return nil }
    // "\r\n" is one Character in Swift: a line ends at either it or a bare "\n".
    var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let requestLine = lines.first else { return nil }
    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(\.isLetter),
      parts[1].hasPrefix("/"), parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
    else { return nil }
    method = String(parts[0])
    let target = parts[1]
    if let mark = target.firstIndex(of: "?") {
      path = String(target[..<mark])
      query = Self.parseQuery(target[target.index(after: mark)...])
    } else {
      path = String(target)
      query = [:]
    }
    headers = []
    for line in lines.dropFirst() {
      // A folded line (obsolete) or a field without a name is refused, not guessed at.
      guard let colon = line.firstIndex(of: ":"), let first = line.first, first != " ",
        first != "\t"
      else { return nil }
      let name = line[..<colon]
      guard !name.isEmpty, !name.contains(" ") else { return nil }
      let value = line[line.index(after: colon)...].trimmingSpaces
      headers.append((name.lowercased(), String(value)))
    }
  }

  private static func parseQuery(_ text: Substring) -> [String: String] {
    var query: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = percentDecoded(halves[0]) else { continue }
      let value = halves.count == 2 ? percentDecoded(halves[1]) : ""
      if query[name] == nil, let value { query[name] = value }
    }
    return query
  }

  /// `text` with `%XX` escapes and `+` decoded; `nil` when an escape or the UTF-8 is broken.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var utf8 = text.utf8.makeIterator()
    while let byte = utf8.next() {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
      case UInt8(ascii: "%"):
        guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue)
        else { return nil }
        bytes.append(high << 4 | low)
      default: bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " || text.first == "\t" { text.removeFirst() }
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return text
  }
}
