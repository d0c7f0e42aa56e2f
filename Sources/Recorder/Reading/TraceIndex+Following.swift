#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Indexing a trace that is still being recorded: its new lines, and the segments rotation
/// starts after it (`.rotate`, `.lastSteps`), found by ``TraceSegments``, as ``TraceFollower`` finds them.
extension TraceIndex {
  /// The trace with the lines written since it was indexed; `self` when nothing whole was
  /// appended. Only the new lines of the newest file are read.
  ///
  /// ```swift
  /// var trace = try TraceIndex(path: "session.ndjson")
  /// trace = try trace.appended()   // later: the steps recorded meanwhile are indexed too
  /// ```
  ///
  /// It reads the file this index opened, even after `path` names another one: a segment's
  /// last lines are written before the next segment takes its name.
  package func appended() throws(TraceReadError) -> TraceIndex {
    var status = stat()
    guard fstat(file.descriptor, &status) == 0, Int(status.st_size) > resumePoint.offset else {
      return self
    }
    let files = segments.dropLast().map(\.file) + [try LineFile(reopening: file)]
    let grown = try TraceIndex(
      path: path, files: files, maximumLineLength: maximumTraceLineLength, after: self)
    return grown.resumePoint.offset == resumePoint.offset ? self : grown
  }

  /// Whether the trace holds its last record, `end` or `crash`: nothing more will be written.
  package var isFinished: Bool { end != nil || crash != nil }

  /// Whether `base`, the trace's path, now names a file other than the one this index reads:
  /// the recorder has started a new segment, or this index reads a numbered one.
  package func hasNewerSegment(base: String) -> Bool {
    var named = stat()
    var own = stat()
    guard stat(base, &named) == 0, fstat(file.descriptor, &own) == 0 else { return false }
    return named.st_dev != own.st_dev || named.st_ino != own.st_ino
  }

  /// The segment that continues this one, once ``hasNewerSegment(base:)``: the one whose first step
  /// is this one's next, or the earliest after it when that one was rotated away (the steps
  /// between are lost); `nil` when none has its header yet. `base` is the trace's path.
  package func nextSegment(base: String) throws(TraceReadError) -> TraceIndex? {
    guard hasNewerSegment(base: base) else { return nil }
    // A later segment than the next step's is taken only when a second scan agrees.
    var pastMissing = false
    var found = TraceSegments.next(from: stepIndices.upperBound, of: base, pastMissing: &pastMissing)
    if found == nil, pastMissing {
      found = TraceSegments.next(from: stepIndices.upperBound, of: base, pastMissing: &pastMissing)
    }
    guard let found else { return nil }
    // Renamed between the scan and the open: looked for again at the next call.
    // One file: the one at `base` read as a set would start at the oldest kept segment.
    let segment = try TraceIndex(segmentAt: found.path)
    return segment.firstStep == found.firstStep ? segment : nil
  }

  /// This trace with `next`, the segment ``nextSegment(base:)`` found, indexed after it: the
  /// steps before stay reachable. `nil` when steps between them were rotated away unread.
  package func continued(by next: TraceIndex) throws(TraceReadError) -> TraceIndex? {
    // The lines written here before the recorder moved on are read first.
    let grown = try appended()
    guard next.firstStep == grown.stepIndices.upperBound, next.segments.count == 1 else {
      return nil
    }
    return try TraceIndex(
      path: path, files: grown.segments.map(\.file) + [next.file],
      maximumLineLength: maximumTraceLineLength, after: grown, added: true)
  }

  /// The kept segment with the smallest first step: where a recording that was waited for
  /// starts (a fast recorder may have rotated before the reader looked).
  package static func oldestSegment(of base: String) -> String? {
    TraceSegments.all(of: base).min(by: { $0.firstStep < $1.firstStep })?.path
  }
}
