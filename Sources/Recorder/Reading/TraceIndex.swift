import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace opened for random access: where each step's line starts, and where the keyframes are.
///
/// Opening reads the file once, in fixed-size chunks, and keeps only offsets: a million-step
/// trace costs about 10 bytes a step of memory, not the file. A step is parsed when it is asked
/// for.
///
/// A rotated recording (`.rotate`, `.lastSteps`) is indexed as its kept set, oldest first
/// (``TraceSegments/readingOrder(of:)``): steps keep their recorded numbers, every segment's
/// keyframes serve, and an error names the segment file and its line.
///
/// ```swift
/// let trace = try TraceIndex(path: "Traces/todos.ndjson")
/// let step = try trace.step(at: 41)
/// let state = try trace.state(afterStep: 41)
/// ```
///
/// Lines this build writes are recognised by their first bytes (`{"kind":"step","index":…`), so
/// indexing does not parse JSON. Any other line is parsed in full. A step line that is broken
/// past its first bytes is reported when it is read, with its file and line.
package final class TraceIndex {
  /// The trace's path: for a rotated set, its newest segment's.
  package let path: String
  /// The trace's first record: the oldest kept segment's header.
  package var header: TraceHeader { segments[0].header }
  /// The end record, when the recorder closed the trace cleanly.
  package var end: TraceEnd? { contents.end }
  /// The crash record, when the process crashed while recording.
  package var crash: TraceCrash? { contents.crash }
  /// Set when a file ends in an incomplete line, which was skipped.
  package let warning: String?
  /// The keyframes: the step each follows, in order. A later segment's header is one.
  package var keyframes: [Keyframe] { contents.keyframes }
  /// How many effect records the trace holds.
  package var effectRecordCount: Int { contents.effectRecordCount }
  /// The runs of steps the recorder lost to failed writes, in order.
  package var gaps: [Gap] { contents.gaps }
  /// What ``typeSchema()`` read, once it has: the file does not change under the index.
  var learntTypes: TypeSchema?

  /// Steps a `gap` record declares lost.
  package struct Gap: Sendable, Equatable {
    /// The lost steps.
    package var steps: ClosedRange<Int>
    /// Why: the write error.
    package var reason: String
    /// The gap record's line number, from 1.
    package var line: Int
    /// The file the gap record is in: a segment's, in a rotated set.
    package var path: String
    var segment: Int
  }

  /// Whether the recorder lost step `index` (see ``gaps``): it has no record.
  package func isLost(_ index: Int) -> Bool {
    gaps.contains { $0.steps.contains(index) }
  }

  /// Where a keyframe is.
  package struct Keyframe: Sendable, Equatable {
    /// The step the keyframe's state follows.
    package var step: Int
    /// Line 1 for a later segment's header, whose initial state serves as the keyframe.
    var line: LineLocation
    var segment: Int
    var isSegmentHeader: Bool { line.number == 1 }
  }

  /// The files, oldest first; the last is the file at ``path``.
  let segments: [Segment]
  private let contents: Contents
  /// The newest file: the one a recorder still writes to.
  var file: LineFile { segments[segments.count - 1].file }
  /// Where the line after the newest file's last whole line starts, and that line's number.
  var resumePoint: (offset: Int, line: Int) { segments[segments.count - 1].resumePoint }

  /// The number of steps.
  package let stepCount: Int
  /// The index of the first step: 0 unless older segments of a rotated trace were dropped.
  package var firstStep: Int { segments[0].firstStep }
  /// The indices of the steps, in order.
  package var stepIndices: Range<Int> { firstStep..<(firstStep + stepCount) }

  /// Opens and indexes the trace at `path`: a rotated recording as its kept set.
  ///
  /// - Throws: ``TraceReadError``: `.missing` when the file cannot be opened, `.malformed` with
  ///   the file and line when a header is missing or broken, a step index repeats or skips, a
  ///   segment does not start where the one before ended, or a line that is not a step cannot
  ///   be parsed.
  package convenience init(path: String) throws(TraceReadError) {
    try self.init(path: path, maximumLineLength: maximumTraceLineLength)
  }

  /// Opens and indexes the one file at `path`, even when it is a segment of a rotated set.
  package convenience init(segmentAt path: String) throws(TraceReadError) {
    try self.init(
      path: path, files: [LineFile(path: path)], maximumLineLength: maximumTraceLineLength,
      after: nil)
  }

  /// Opens and indexes the trace at `path`, refusing lines longer than `maximumLineLength`.
  convenience init(path: String, maximumLineLength: Int) throws(TraceReadError) {
    var files: [LineFile] = []
    for name in TraceSegments.readingOrder(of: path) { files.append(try LineFile(path: name)) }
    try self.init(path: path, files: files, maximumLineLength: maximumLineLength, after: nil)
  }

  /// Indexes `files`, oldest first, or only the lines of the last after those `previous`
  /// indexed when the files are the same, the last grown since (``appended()``), or, when
  /// `previous` indexed all but the last `added`, only that one.
  init(
    path: String, files: [LineFile], maximumLineLength: Int, after previous: TraceIndex?,
    added: Bool = false
  ) throws(TraceReadError) {
    self.path = path
    var contents = previous?.contents ?? Contents()
    var segments = previous.map { added ? $0.segments : Array($0.segments.dropLast()) } ?? []
    for (number, file) in files.enumerated() where number >= segments.count {
      let resumed = !added && number == files.count - 1 ? previous?.segments.last : nil
      let segment = try Self.indexSegment(
        file, number: number, resuming: resumed, expected: segments.last?.stepIndices.upperBound,
        maximumLineLength: maximumLineLength, into: &contents)
      segments.append(segment)
    }
    self.segments = segments
    self.contents = contents
    stepCount = segments.reduce(0) { $0 + $1.stepLines.count }
    let warnings = segments.compactMap(\.warning)
    warning = warnings.isEmpty ? nil : warnings.joined(separator: "\n")
  }

  /// The segment that holds step `index`'s line: the last that starts at or before it.
  @inline(__always)
  private func segmentNumber(ofStep index: Int) -> Int {
    if segments.count == 1 { return 0 }
    var low = 0
    var high = segments.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if segments[middle].firstStep <= index { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The line of step `index`, and the segment it is in.
  private func stepLine(_ index: Int) -> (line: LineLocation, segment: Int) {
    let number = segmentNumber(ofStep: index)
    return (segments[number].stepLines[index - segments[number].firstStep], number)
  }

  /// The file and line number, from 1, of the step with index `index`.
  package func location(ofStep index: Int) -> (path: String, line: Int) {
    let (line, segment) = stepLine(index)
    return (segments[segment].path, line.number)
  }

  /// Whether step `index`'s line comes before line `line` of the file at `path`, in reading
  /// order; a file not in the trace is taken for the newest.
  package func isStep(_ index: Int, before path: String, line: Int) -> Bool {
    let (location, segment) = stepLine(index)
    let other = segments.lastIndex { $0.path == path } ?? segments.count - 1
    return segment != other ? segment < other : location.number < line
  }

  /// The `types` member of step `index`, or `nil`: a line without the bytes `"types":` (most
  /// lines: the recorder writes each fact once) is skipped unparsed.
  func stepTypes(at index: Int) -> JSONValue? {
    let (line, segment) = stepLine(index)
    let file = segments[segment].file
    guard let bytes = try? file.bytes(of: line, path: file.path) else { return nil }
    let needle: [UInt8] = Array(#""types":"#.utf8)
    // By memchr and memcmp: a line holding a 10 MB string is passed in milliseconds.
    let found = bytes.withUnsafeBufferPointer { line in
      needle.withUnsafeBufferPointer { needle in
        guard let base = line.baseAddress, line.count >= needle.count else { return false }
        var start = 0
        while start + needle.count <= line.count,
          let hit = memchr(base + start, Int32(needle[0]), line.count - needle.count + 1 - start)
        {
          let quote = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
          if memcmp(base + quote, needle.baseAddress!, needle.count) == 0 { return true }
          start = quote + 1
        }
        return false
      }
    }
    return found ? (try? step(at: index))?.types : nil
  }

  /// The step with index `index`.
  ///
  /// - Throws: ``TraceReadError`` naming the file and line when it is not a valid step record.
  package func step(at index: Int) throws(TraceReadError) -> TraceStep {
    precondition(stepIndices.contains(index), "step \(index) is not in \(stepIndices)")
    let (line, segment) = stepLine(index)
    let path = segments[segment].path
    let record = try segments[segment].file.record(at: line, path: path)
    if case .gap(let gap) = record {
      throw TraceReadError(
        path: path, line: line.number, kind: .malformed,
        message: "step \(index) was lost: the recorder could not write steps "
          + "\(gap.from)…\(gap.to) (\(gap.reason))")
    }
    guard case .step(let step) = record, step.index == index
    else {
      throw TraceReadError(
        path: path, line: line.number, kind: .malformed,
        message: "expected the record of step \(index)"
      )
    }
    return step
  }

  /// The state after step `index`, or the initial state when `index` is `nil`.
  ///
  /// Starts from the nearest full state, the initial state or a keyframe, and applies the
  /// patches between: forwards from one before the step, or backwards, inverted, from a
  /// keyframe after it, whichever is nearer. Keyframes are far apart when states are big
  /// (see the format); taking the nearer one halves the worst case.
  package func state(afterStep index: Int?) throws(TraceReadError) -> JSONValue {
    guard let index else { return header.initialState }
    if let gap = gaps.first(where: { $0.steps.contains(index) }), index != gap.steps.upperBound {
      throw TraceReadError(
        path: gap.path, line: gap.line, kind: .malformed,
        message: "step \(index) was lost: the recorder could not write steps "
          + "\(gap.steps.lowerBound)…\(gap.steps.upperBound) (\(gap.reason))")
    }
    // Keyframes are in step order: the first one after the step, and the one before it.
    let position = firstKeyframePosition(after: index)
    let before = position > 0 ? keyframes[position - 1] : nil
    let after = position < keyframes.count ? keyframes[position] : nil
    let walkedFromBefore = index - (before?.step ?? firstStep - 1)
    if let after, after.step - index < walkedFromBefore,
      // A patch without the `test`s that make it invertible sends us the other way.
      let state = try? walkingBack(from: after, to: index)
    {
      return state
    }
    var state = header.initialState
    var next = firstStep
    if let before {
      state = try keyframeState(before)
      next = before.step + 1
    }
    while next <= index {
      try apply(step(at: next), to: &state)
      next += 1
    }
    return state
  }

  /// The state after step `index`, undoing the steps from `keyframe` back to it.
  private func walkingBack(from keyframe: Keyframe, to index: Int) throws(TraceReadError)
    -> JSONValue
  {
    var state = try keyframeState(keyframe)
    var current = keyframe.step
    while current > index {
      try unapply(step(at: current), to: &state)
      current -= 1
    }
    return state
  }

  func keyframeState(_ keyframe: Keyframe) throws(TraceReadError) -> JSONValue {
    let segment = segments[keyframe.segment]
    if keyframe.isSegmentHeader { return segment.header.initialState }
    let path = segment.path
    let record = try segment.file.record(at: keyframe.line, path: path)
    if case .gap(let gap) = record { return gap.state }
    guard case .keyframe(let record) = record else {
      throw TraceReadError(
        path: path, line: keyframe.line.number, kind: .malformed,
        message: "expected the keyframe after step \(keyframe.step)"
      )
    }
    return record.state
  }

  /// Applies a step's patch to the state before it, in place: a big state is not copied.
  ///
  /// - Throws: ``TraceReadError`` naming the step's line when the patch does not apply; `state`
  ///   may then be partly changed, and is rebuilt with ``state(afterStep:)``.
  package func apply(_ step: TraceStep, to state: inout JSONValue) throws(TraceReadError) {
    do {
      try step.patch.apply(to: &state)
    } catch {
      throw patchFailure(step, error, direction: "")
    }
  }

  /// Undoes a step's patch in place, from the state after it to the state before it.
  ///
  /// - Throws: as ``apply(_:to:)`` does.
  package func unapply(_ step: TraceStep, to state: inout JSONValue) throws(TraceReadError) {
    do {
      try step.patch.inverted().apply(to: &state)
    } catch {
      throw patchFailure(step, error, direction: " backwards")
    }
  }

  private func patchFailure(_ step: TraceStep, _ error: JSONPatchError, direction: String)
    -> TraceReadError
  {
    let (path, line) = location(ofStep: step.index)
    return TraceReadError(
      path: path, line: line, kind: .malformed,
      message: "the patch of step \(step.index) does not apply\(direction): \(error)"
    )
  }

  /// The position of the first keyframe whose step is after `index`; keyframes are in step order.
  func firstKeyframePosition(after index: Int) -> Int {
    var low = 0
    var high = keyframes.count
    while low < high {
      let middle = (low + high) / 2
      if keyframes[middle].step <= index { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
