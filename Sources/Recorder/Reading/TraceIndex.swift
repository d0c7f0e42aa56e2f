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
  /// The trace file.
  package let path: String
  /// The trace's first record.
  package let header: TraceHeader
  /// The end record, when the recorder closed the trace cleanly.
  package var end: TraceEnd? { contents.end }
  /// The crash record, when the process crashed while recording.
  package var crash: TraceCrash? { contents.crash }
  /// Set when the file ends in an incomplete line, which was skipped.
  package let warning: String?
  /// The keyframes: the step each follows, in order.
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
  }

  /// Whether the recorder lost step `index` (see ``gaps``): it has no record.
  package func isLost(_ index: Int) -> Bool {
    gaps.contains { $0.steps.contains(index) }
  }

  /// Where a keyframe is.
  package struct Keyframe: Sendable, Equatable {
    /// The step the keyframe's state follows.
    package var step: Int
    var line: LineLocation
  }

  let file: LineFile
  private let contents: Contents
  /// Where the line after the last whole line indexed starts, and that line's number.
  let resumePoint: (offset: Int, line: Int)
  private var stepLines: StepLineTable { contents.stepLines }

  /// What one pass over the file finds. Built in a local value, then stored: mutating a class's
  /// arrays a million times would pay for a dynamic exclusivity check each time.
  private struct Contents {
    var stepLines = StepLineTable()
    var keyframes: [Keyframe] = []
    var effectRecordCount = 0
    var end: TraceEnd?
    var gaps: [Gap] = []
    var crash: TraceCrash?
  }

  /// The number of steps.
  package var stepCount: Int { stepLines.count }
  /// The index of the first step: 0 unless the file continues a rotated trace.
  package var firstStep: Int { header.firstStep }
  /// The indices of the steps, in order.
  package var stepIndices: Range<Int> { firstStep..<(firstStep + stepCount) }

  /// Opens and indexes the trace at `path`.
  ///
  /// - Throws: ``TraceReadError``: `.missing` when the file cannot be opened, `.malformed` with
  ///   the line when the header is missing or broken, a step index repeats or skips, or a line
  ///   that is not a step cannot be parsed.
  package convenience init(path: String) throws(TraceReadError) {
    try self.init(path: path, maximumLineLength: maximumTraceLineLength)
  }

  /// Opens and indexes the trace at `path`, refusing lines longer than `maximumLineLength`.
  convenience init(path: String, maximumLineLength: Int) throws(TraceReadError) {
    try self.init(file: LineFile(path: path), maximumLineLength: maximumLineLength, after: nil)
  }

  /// Indexes `file`, or only its lines after those `previous` indexed when it is the same file
  /// grown since (``appended()``).
  init(file: LineFile, maximumLineLength: Int, after previous: TraceIndex?)
    throws(TraceReadError)
  {
    path = file.path
    self.file = file
    var scanner = LineScanner(
      file: file, maximumLineLength: maximumLineLength, resuming: previous?.resumePoint)
    var contents: Contents
    if let previous {
      header = previous.header
      contents = previous.contents
    } else {
      guard let first = try scanner.nextLine() else {
        throw TraceReadError(
          path: path, line: nil, kind: .malformed,
          message: noRecordProblem(endsInTornLine: scanner.tornLineLength > 0))
      }
      header = try TraceHeader(
        parsingFirstLine: file.bytes(of: first, path: path), path: path, line: first.number)
      contents = Contents()
    }
    let firstStep = header.firstStep
    while let line = try scanner.nextLine() {
      // The common case, kept free of calls that retain the header or the file.
      if case .step(let index) = scanner.head, index == firstStep + contents.stepLines.count {
        contents.stepLines.append(line)
        continue
      }
      try Self.index(line, head: scanner.head, into: &contents, header: header, file: file)
    }
    self.contents = contents
    resumePoint = scanner.resumePoint
    warning =
      scanner.tornLineLength == 0
      ? nil
      : "\(path):\(scanner.lineNumber + 1): warning: the last line is incomplete "
        + "(\(counted(scanner.tornLineLength, "byte"))); the recorder probably stopped mid-write. "
        + "It was skipped."
  }

  private static func index(
    _ line: LineLocation, head: LineHead, into contents: inout Contents, header: TraceHeader,
    file: LineFile
  ) throws(TraceReadError) {
    let path = file.path
    func appendStep(_ index: Int) throws(TraceReadError) {
      let expected = header.firstStep + contents.stepLines.count
      guard index == expected else {
        throw TraceReadError(
          path: path, line: line.number, kind: .malformed,
          message: stepIndexProblem(index, expected))
      }
      contents.stepLines.append(line)
    }
    // A keyframe names the step it follows; one that names another would give wrong states.
    func appendKeyframe(_ index: Int) throws(TraceReadError) {
      let last = contents.stepLines.isEmpty ? nil : header.firstStep + contents.stepLines.count - 1
      guard index == last else {
        throw TraceReadError(
          path: path, line: line.number, kind: .malformed,
          message: keyframeIndexProblem(index, lastStep: last))
      }
      contents.keyframes.append(Keyframe(step: index, line: line))
    }
    switch head {
    case .step(let index):
      try appendStep(index)
    case .keyframe(let index):
      try appendKeyframe(index)
    case .effect:
      contents.effectRecordCount += 1
    case .other:
      // Not written the way this build writes: parse it to learn what it is.
      switch try file.record(at: line, path: path) {
      case .step(let step): try appendStep(step.index)
      case .keyframe(let keyframe): try appendKeyframe(keyframe.index)
      case .effect: contents.effectRecordCount += 1
      case .end(let record): contents.end = record
      case .gap(let gap):
        let expected = header.firstStep + contents.stepLines.count
        guard gap.from == expected else {
          throw TraceReadError(
            path: path, line: line.number, kind: .malformed,
            message: gapIndexProblem(gap, expected))
        }
        // Each lost step points at the gap's line, and the gap's state serves as a keyframe
        // after its last step: readers go on from there. A crafted gap of more steps than a
        // recorder could lose is refused rather than indexed step by step.
        guard gap.to - gap.from < 1 << 28 else {
          throw TraceReadError(
            path: path, line: line.number, kind: .malformed,
            message: "a gap of \(counted(gap.to - gap.from + 1, "step")); at most \(1 << 28) "
              + "can be indexed")
        }
        for _ in gap.from...gap.to { contents.stepLines.append(line) }
        contents.keyframes.append(Keyframe(step: gap.to, line: line))
        contents.gaps.append(Gap(steps: gap.steps, reason: gap.reason, line: line.number))
      case .crash(let record): contents.crash = record
      case .header:
        throw TraceReadError(
          path: path, line: line.number, kind: .malformed,
          message: "a second header record; only the first line may be a header"
        )
      case nil: break
      }
    }
  }

  /// The step with index `index`.
  ///
  /// - Throws: ``TraceReadError`` naming the line when it is not a valid step record.
  /// The `types` member of step `index`, or `nil`: a line without the bytes `"types":` (most
  /// lines: the recorder writes each fact once) is skipped unparsed.
  func stepTypes(at index: Int) -> JSONValue? {
    let line = stepLines[index - firstStep]
    guard let bytes = try? file.bytes(of: line, path: path) else { return nil }
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

  package func step(at index: Int) throws(TraceReadError) -> TraceStep {
    precondition(stepIndices.contains(index), "step \(index) is not in \(stepIndices)")
    let line = stepLines[index - firstStep]
    let record = try file.record(at: line, path: path)
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

  /// The line number, from 1, of the step with index `index`.
  package func lineNumber(ofStep index: Int) -> Int {
    stepLines[index - firstStep].number
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
        path: path, line: gap.line, kind: .malformed,
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
    let record = try file.record(at: keyframe.line, path: path)
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
    TraceReadError(
      path: path, line: lineNumber(ofStep: step.index), kind: .malformed,
      message: "the patch of step \(step.index) does not apply\(direction): \(error)"
    )
  }

  /// The position of the first keyframe whose step is after `index`; keyframes are in step order.
  private func firstKeyframePosition(after index: Int) -> Int {
    var low = 0
    var high = keyframes.count
    while low < high {
      let middle = (low + high) / 2
      if keyframes[middle].step <= index { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
