#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Indexing a trace that is still being recorded: its new lines, and the segments rotation
/// starts after it (`.rotate`, `.lastSteps`), found as ``TraceFollower`` finds them.
extension TraceIndex {
  /// The trace with the lines written since it was indexed; `self` when nothing whole was
  /// appended. Only the new lines are read.
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
    let grown = try TraceIndex(
      file: LineFile(reopening: file), maximumLineLength: maximumTraceLineLength, after: self)
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
    let next = stepIndices.upperBound
    // A scan during a rotation can miss a segment whose name changes under it: a later one
    // is taken only when a second scan agrees.
    let candidates = Self.segments(of: base).filter { $0.firstStep >= next }
    guard var best = candidates.min(by: { $0.firstStep < $1.firstStep }) else { return nil }
    if best.firstStep != next {
      guard
        let again = Self.segments(of: base).filter({ $0.firstStep >= next })
          .min(by: { $0.firstStep < $1.firstStep })
      else { return nil }
      best = again
    }
    // Renamed between the scan and the open: looked for again at the next call.
    let segment = try TraceIndex(path: best.name)
    return segment.firstStep == best.firstStep ? segment : nil
  }

  /// The kept segment with the smallest first step: where a recording that was waited for
  /// starts (a fast recorder may have rotated before the reader looked).
  package static func oldestSegment(of base: String) -> String? {
    segments(of: base).min(by: { $0.firstStep < $1.firstStep })?.name
  }

  /// The segments at `base` and its numbered names that have a whole header line.
  private static func segments(of base: String) -> [(name: String, firstStep: Int)] {
    var found: [(name: String, firstStep: Int)] = []
    var index = 0
    while index <= 10_000 {
      let name = index == 0 ? base : "\(base).\(index)"
      index += 1
      guard let file = try? LineFile(path: name) else {
        if index == 1 { continue }
        break
      }
      var scanner = LineScanner(file: file, maximumLineLength: maximumTraceLineLength)
      guard let line = try? scanner.nextLine(), let bytes = try? file.bytes(of: line, path: name),
        let header = try? TraceHeader(parsingFirstLine: bytes, path: name, line: 1)
      else { continue }
      found.append((name, header.firstStep))
    }
    return found
  }
}
