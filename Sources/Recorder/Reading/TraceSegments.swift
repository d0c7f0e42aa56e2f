#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The segments of a rotated recording (`.rotate`, `.lastSteps`): the file at a trace's path and
/// its numbered older names, each known by its header's `firstStep`. The one finder that
/// following, the stepper and reading a whole kept set use.
///
/// ```swift
/// for path in TraceSegments.readingOrder(of: "app.ndjson") { … }   // oldest kept first
/// ```
package enum TraceSegments {
  /// One kept segment: where it is, which file it is, and the step it starts at.
  package struct Segment: Equatable, Sendable {
    /// The name it had when found.
    package var path: String
    /// The file's identity, so that a reader can tell it from the one it holds.
    package var identity: Identity
    /// Its header's `firstStep`.
    package var firstStep: Int
  }

  /// A file's device and inode: the same file under any name.
  package struct Identity: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64

    /// The identity `fstat` or `stat` gave.
    package init(_ status: stat) {
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
    }
  }

  /// The segments at `base` and its numbered names that have a whole header line, in the order
  /// of their names. The numbers are contiguous: the first missing one ends the search.
  package static func all(of base: String) -> [Segment] {
    var found: [Segment] = []
    var index = 0
    while index <= 10_000 {
      let name = index == 0 ? base : "\(base).\(index)"
      index += 1
      guard let file = try? LineFile(path: name) else {
        if index == 1 { continue }
        break
      }
      var status = stat()
      var scanner = LineScanner(file: file, maximumLineLength: maximumTraceLineLength)
      guard fstat(file.descriptor, &status) == 0, let line = try? scanner.nextLine(),
        let bytes = try? file.bytes(of: line, path: name),
        let header = try? TraceHeader(parsingFirstLine: bytes, path: name, line: 1)
      else { continue }
      found.append(Segment(path: name, identity: Identity(status), firstStep: header.firstStep))
    }
    return found
  }

  /// The files a trace at `base` reads as, oldest first: the kept segments older than the one
  /// at `base`, by `firstStep`, then `base`. Just `base` when rotation left no numbered name.
  package static func readingOrder(of base: String) -> [String] {
    // Most traces were never rotated: one `access`, no header read.
    guard access("\(base).1", F_OK) == 0 else { return [base] }
    let found = all(of: base)
    guard let newest = found.first(where: { $0.path == base }) else { return [base] }
    return found.filter { $0.firstStep < newest.firstStep }
      .sorted { $0.firstStep < $1.firstStep }.map(\.path) + [base]
  }

  /// The segment that continues at step `first`, or, when that one was rotated away, the
  /// earliest after it; `nil` when none has its header yet. `excluded` is a file not to take.
  ///
  /// A scan during a rotation can miss a segment whose name changes under it: a later one is
  /// taken only once `pastMissing` says the scan before found the same (it is then cleared).
  package static func next(
    from first: Int, of base: String, excluding excluded: Identity? = nil,
    pastMissing: inout Bool
  ) -> Segment? {
    let best = all(of: base).filter { $0.firstStep >= first && $0.identity != excluded }
      .min { $0.firstStep < $1.firstStep }
    guard let best else { return nil }
    if best.firstStep != first, !pastMissing {
      pastMissing = true
      return nil
    }
    pastMissing = false
    return best
  }
}
