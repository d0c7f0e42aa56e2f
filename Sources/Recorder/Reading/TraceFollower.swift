import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a trace as it is recorded, like `tail -f`: each call to ``poll(_:)`` hands over the
/// records written since the last one, checked as ``CheckedTraceReader`` checks them.
///
/// ```swift
/// let follower = TraceFollower(path: "session.ndjson")
/// while true {
///   switch try follower.poll({ record in … }) {   // follower.state: after `record`
///   case .read: continue
///   case .idle, .waitingForFile: usleep(20_000)
///   case .ended: return
///   }
/// }
/// ```
///
/// It survives rotation (`.rotate`, `.lastSteps`): when `path` names another file, the old
/// one is read to its end first (the writer wrote its last line there before naming the new
/// one), then the segment whose header's `firstStep` is the next step is read, at `path` or at
/// a numbered name if the follower fell behind by more than a segment. A last line without its
/// newline is a line still being written: it waits for the rest. A trace that does not exist
/// yet is waited for, then read from its oldest kept segment. Only the unread part of a line and
/// the current state are held.
package final class TraceFollower {
  /// What a ``poll(_:)`` did.
  package enum Progress: Equatable, Sendable {
    /// Read something: poll again at once.
    case read
    /// Nothing new yet.
    case idle
    /// The trace does not exist yet.
    case waitingForFile
    /// Read the `end` or `crash` record: nothing more will come.
    case ended
  }

  /// The path followed.
  package let path: String
  /// Steps that were rotated away (and deleted) before they could be read, in order.
  package private(set) var lost: [ClosedRange<Int>] = []
  /// The state after the last record handed over.
  package var state: JSONValue { checker?.state ?? .null }

  private var segment: Segment?
  private var checker: TraceChecker?
  /// The index the next step must have, once a header has been read.
  private var nextStep: Int?
  /// What each `read` fills: allocated once, not at every poll.
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  /// Whether the trace was missing when first looked for.
  private var waited = false
  /// Whether the last scan for the next segment found only later ones.
  private var scannedPastMissing = false

  /// One file being read: its descriptor, identity and the bytes of a line not yet whole.
  private struct Segment {
    var descriptor: Int32
    var identity: TraceSegments.Identity
    var line = 0
    var pending: [UInt8] = []
  }

  package init(path: String) {
    self.path = path
  }

  /// How often the first segment was looked for again after a rotation raced the lookup.
  private var startLookups = 0

  deinit {
    if let segment { close(segment.descriptor) }
  }

  /// Reads what was written since the last call and hands each record to `body`, in order.
  ///
  /// - Throws: ``TraceReadError`` for a line that breaks the format, as the checked reader
  ///   names it, or a file that cannot be read.
  package func poll(_ body: (TraceRecord) -> Void) throws(TraceReadError) -> Progress {
    if segment == nil {
      guard let opened = try openSegment(path) else {
        waited = true
        return .waitingForFile
      }
      // A trace that appeared while waiting is read from its first segment still kept: a fast
      // recorder may have rotated it before the follower looked.
      if waited, let first = try nextSegment(from: 0, excluding: nil) {
        close(opened.descriptor)
        segment = first
      } else if waited, startLookups < 50 {
        // A segment was renamed between the scan and the open: a rotation is under way, and
        // the file at `path` may already hold later steps. Look again at the next poll.
        startLookups += 1
        close(opened.descriptor)
        return .idle
      } else {
        segment = opened
      }
      // A recording starts at step 0: what a follower that waited for it finds rotated away
      // before it looked is lost, and said so.
      if waited { nextStep = 0 }
    }
    // Looked at before reading: when `path` already names another file, the writer wrote its
    // last line here before that, so the read below takes this segment to its end.
    let moved = try currentHasMoved()
    let read = try readAvailable(body)
    if read == .ended { return .ended }
    guard moved else { return read }
    guard let next = try nextSegment(from: nextStep, excluding: segment!.identity) else {
      return .idle
    }
    close(segment!.descriptor)
    segment = next
    return .read
  }

  /// Reads to the end of the current file, handing over every whole line: `.ended` at the end
  /// or crash record, `.read` when there were new bytes, `.idle` when none.
  private func readAvailable(_ body: (TraceRecord) -> Void) throws(TraceReadError) -> Progress {
    var progress = Progress.idle
    while true {
      let descriptor = segment!.descriptor
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        throw TraceReadError(
          path: path, line: nil, kind: .missing, message: String(cString: strerror(errno)))
      }
      if count == 0 { return progress }
      progress = .read
      let chunk = self.chunk
      if try consume(chunk[0..<count], body) { return .ended }
    }
  }

  /// Appends `bytes` to the line being read and hands over each line they complete.
  private func consume(_ bytes: ArraySlice<UInt8>, _ body: (TraceRecord) -> Void)
    throws(TraceReadError) -> Bool
  {
    var rest = bytes
    while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
      segment!.pending.append(contentsOf: rest[..<newline])
      rest = rest[(newline + 1)...]
      let line = segment!.pending[...]
      segment!.pending.removeAll(keepingCapacity: true)
      segment!.line += 1
      if isBlank(line) { continue }
      if try handle(line, body) { return true }
    }
    segment!.pending.append(contentsOf: rest)
    guard segment!.pending.count <= maximumTraceLineLength else {
      throw TraceReadError(
        path: path, line: segment!.line + 1, kind: .malformed,
        message: lineTooLong(maximumTraceLineLength))
    }
    return false
  }

  /// Checks one whole line and hands its record over; `true` for the end or crash record.
  private func handle(_ line: ArraySlice<UInt8>, _ body: (TraceRecord) -> Void)
    throws(TraceReadError) -> Bool
  {
    let number = segment!.line
    if number == 1 {
      let header = try TraceHeader(parsingFirstLine: line, path: path, line: number)
      if let nextStep, header.firstStep > nextStep {
        lost.append(nextStep...(header.firstStep - 1))
      }
      checker = TraceChecker(header: header)
      nextStep = header.firstStep
      body(.header(header))
      return false
    }
    guard let record = try TraceRecord(parsingLine: line, path: path, line: number) else {
      return false
    }
    try checker!.check(record, path: path, line: number)
    if let last = checker!.lastStep { nextStep = last + 1 }
    body(record)
    switch record {
    case .end, .crash: return true
    default: return false
    }
  }

  /// Whether `path` now names a file other than the one being read.
  private func currentHasMoved() throws(TraceReadError) -> Bool {
    var status = stat()
    // Missing for a moment where names cannot be swapped: not a move yet.
    guard stat(path, &status) == 0 else { return false }
    return Self.identity(status) != segment!.identity
  }

  /// The segment whose first step is `first`, or, when that one is gone, the earliest after
  /// it (``TraceSegments/next(from:of:excluding:pastMissing:)``); `nil` when none is there yet.
  /// The one at `path` when `first` is `nil` (no header read yet).
  private func nextSegment(from first: Int?, excluding current: TraceSegments.Identity?)
    throws(TraceReadError) -> Segment?
  {
    guard let first else { return try openSegment(path) }
    guard
      let found = TraceSegments.next(
        from: first, of: path, excluding: current, pastMissing: &scannedPastMissing),
      let opened = try openSegment(found.path)
    else { return nil }
    // Renamed between the scan and the open: looked for again at the next poll.
    guard opened.identity == found.identity else {
      close(opened.descriptor)
      return nil
    }
    return opened
  }

  /// Opens `name` to read; `nil` when it does not exist.
  private func openSegment(_ name: String) throws(TraceReadError) -> Segment? {
    let descriptor = open(name, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw TraceReadError(
        path: name, line: nil, kind: .missing, message: String(cString: strerror(errno)))
    }
    var status = stat()
    fstat(descriptor, &status)
    if (status.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw TraceReadError(path: name, line: nil, kind: .missing, message: "is a directory")
    }
    return Segment(descriptor: descriptor, identity: Self.identity(status))
  }

  private static func identity(_ status: stat) -> TraceSegments.Identity {
    TraceSegments.Identity(status)
  }
}
