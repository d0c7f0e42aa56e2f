import TraceJSON

extension TraceIndex {
  /// One file of an indexed trace: the only one, or a kept segment of a rotated set.
  struct Segment {
    let file: LineFile
    let header: TraceHeader
    /// Its header's `firstStep`, kept apart: step lookups read it for every step.
    let firstStep: Int
    /// Where each of its steps' lines is, from ``firstStep`` on.
    var stepLines = StepLineTable()
    /// Where the line after its last whole line starts, and that line's number.
    var resumePoint = (offset: 0, line: 1)
    /// Its incomplete last line, skipped: the line's number and length.
    var tornLine: (line: Int, length: Int)?

    var path: String { file.path }
    var stepIndices: Range<Int> { firstStep..<(firstStep + stepLines.count) }

    /// The warning about its torn last line, if it has one.
    var warning: String? {
      tornLine.map { torn in
        "\(path):\(torn.line): warning: the last line is incomplete "
          + "(\(counted(torn.length, "byte"))); the recorder probably stopped mid-write. "
          + "It was skipped."
      }
    }
  }

  /// What one pass over the files finds, but their step lines. Built in a local value, then
  /// stored: mutating a class's arrays a million times would pay for an exclusivity check each.
  struct Contents {
    var keyframes: [Keyframe] = []
    var effectRecordCount = 0
    var end: TraceEnd?
    var gaps: [Gap] = []
    var crash: TraceCrash?
  }

  /// Indexes `file`, segment number `number` of the trace, or only its lines after those
  /// `resumed` indexed when it is the same file grown since. `expected` is the step the segment
  /// before ended before: this one must start there.
  static func indexSegment(
    _ file: LineFile, number: Int, resuming resumed: Segment?, expected: Int?,
    maximumLineLength: Int, into contents: inout Contents
  ) throws(TraceReadError) -> Segment {
    let path = file.path
    var scanner = LineScanner(
      file: file, maximumLineLength: maximumLineLength, resuming: resumed?.resumePoint)
    var segment: Segment
    if let resumed {
      segment = Segment(file: file, header: resumed.header, firstStep: resumed.firstStep)
      segment.stepLines = resumed.stepLines
    } else {
      guard let first = try scanner.nextLine() else {
        throw TraceReadError(
          path: path, line: nil, kind: .malformed,
          message: noRecordProblem(endsInTornLine: scanner.tornLineLength > 0))
      }
      let header = try TraceHeader(
        parsingFirstLine: file.bytes(of: first, path: path), path: path, line: first.number)
      if let expected, header.firstStep != expected {
        throw TraceReadError(
          path: path, line: first.number, kind: .malformed,
          message: "the segment starts at step \(header.firstStep), but the one before it ends "
            + "before step \(expected)")
      }
      segment = Segment(file: file, header: header, firstStep: header.firstStep)
    }
    let keyframeCount = contents.keyframes.count
    let firstStep = segment.firstStep
    var stepLines = segment.stepLines
    segment.stepLines = StepLineTable()
    while let line = try scanner.nextLine() {
      // The common case, kept free of calls that retain the header or the file.
      if case .step(let index) = scanner.head, index == firstStep + stepLines.count {
        stepLines.append(line)
        continue
      }
      try index(
        line, head: scanner.head, into: &contents, stepLines: &stepLines, segment: number,
        firstStep: firstStep, file: file)
    }
    segment.stepLines = stepLines
    segment.resumePoint = scanner.resumePoint
    if scanner.tornLineLength > 0 {
      segment.tornLine = (scanner.lineNumber + 1, scanner.tornLineLength)
    }
    // A later segment's header holds the state after the step before it: a keyframe, unless
    // the segment starts with lost steps, whose gap holds the state after them instead.
    let startsWithGap = contents.gaps.contains { $0.segment == number && $0.steps.first == firstStep }
    if number > 0, resumed == nil, !startsWithGap {
      contents.keyframes.insert(
        Keyframe(step: firstStep - 1, line: LineLocation(offset: 0, length: 0, number: 1),
          segment: number),
        at: keyframeCount)
    }
    return segment
  }

  private static func index(
    _ line: LineLocation, head: LineHead, into contents: inout Contents,
    stepLines: inout StepLineTable, segment: Int, firstStep: Int, file: LineFile
  ) throws(TraceReadError) {
    let path = file.path
    func appendStep(_ index: Int) throws(TraceReadError) {
      let expected = firstStep + stepLines.count
      guard index == expected else {
        throw TraceReadError(
          path: path, line: line.number, kind: .malformed,
          message: stepIndexProblem(index, expected))
      }
      stepLines.append(line)
    }
    // A keyframe names the step it follows; one that names another would give wrong states.
    func appendKeyframe(_ index: Int) throws(TraceReadError) {
      let last = stepLines.isEmpty ? nil : firstStep + stepLines.count - 1
      guard index == last else {
        throw TraceReadError(
          path: path, line: line.number, kind: .malformed,
          message: keyframeIndexProblem(index, lastStep: last))
      }
      contents.keyframes.append(Keyframe(step: index, line: line, segment: segment))
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
        let expected = firstStep + stepLines.count
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
        for _ in gap.from...gap.to { stepLines.append(line) }
        contents.keyframes.append(Keyframe(step: gap.to, line: line, segment: segment))
        contents.gaps.append(
          Gap(
            steps: gap.steps, reason: gap.reason, line: line.number, path: path,
            segment: segment))
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
}
