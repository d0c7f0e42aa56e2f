#if canImport(Glibc)
  import Glibc
#endif

/// The bytes a host wrote, cut into lines, each no longer than a limit.
///
/// Each byte is searched for a newline once: the search resumes where the last one ended, so a
/// long line costs time in proportion to its length, not to its square. Lines handed out are
/// dropped from the front in bulk, not one by one.
struct HostLineBuffer {
  /// The longest line accepted, without its newline.
  let maximumLength: Int
  private var bytes: [UInt8] = []
  /// Where the next line starts.
  private var start = 0
  /// `bytes[start..<scanned]` holds no newline.
  private var scanned = 0

  init(maximumLength: Int) {
    self.maximumLength = maximumLength
  }

  /// A line longer than `maximumLength`.
  struct LineTooLong: Error {}

  /// Whether nothing is buffered.
  var isEmpty: Bool { start == bytes.count }

  mutating func append(_ chunk: UnsafeRawBufferPointer) {
    if start > 0, start >= bytes.count / 2 {
      bytes.removeFirst(start)
      scanned -= start
      start = 0
    }
    bytes.append(contentsOf: chunk)
  }

  /// The next complete line, without its newline; `nil` until one has arrived.
  mutating func nextLine() throws(LineTooLong) -> [UInt8]? {
    let from = max(scanned, start)
    let newline: Int? = bytes.withUnsafeBufferPointer { all in
      guard from < all.count, let base = all.baseAddress,
        let found = memchr(base + from, 10, all.count - from)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
    guard let newline else {
      scanned = bytes.count
      guard bytes.count - start <= maximumLength else { throw LineTooLong() }
      return nil
    }
    guard newline - start <= maximumLength else { throw LineTooLong() }
    let line = Array(bytes[start..<newline])
    start = newline + 1
    scanned = start
    return line
  }
}
