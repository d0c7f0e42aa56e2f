import TraceJSON

/// The checks ``CheckedTraceReader`` makes on every record after the header, against the state
/// the patches rebuild: kept apart from the reading so each thread of ``CheckedTraceReader/Scan``
/// can check its own run of lines with the same checks and the same words.
///
/// ```swift
/// var checker = TraceChecker(header: header)
/// try checker.check(record, path: path, line: line)   // checker.state: after the record
/// ```
///
/// Steps must be numbered on from the header's `firstStep` with no gap or repeat, every patch
/// must apply, and a keyframe must name the step before it and hold the state the patches
/// rebuild. Only the first line may be a header. A `gap` record stands for the steps it
/// declares lost: it must come where the first of them would, and its state replaces the one
/// the patches rebuilt.
struct TraceChecker {
  /// The state after the last step checked; the initial state before the first.
  private(set) var state: JSONValue
  /// The index the next step must have.
  private(set) var nextStep: Int
  /// The index of the last step checked, or `nil` before the first one.
  private(set) var lastStep: Int?
  /// Whether the first record must be a keyframe to start from, unchecked.
  private var startsAtKeyframe: Bool

  /// Checks the records after `header`, from its initial state.
  init(header: TraceHeader) {
    self.init(state: header.initialState, nextStep: header.firstStep, startsAtKeyframe: false)
  }

  /// Checks a run of lines whose first record is a keyframe, and starts from it as it is: its
  /// index and state are checked by whoever checks the lines before it.
  static var fromFirstKeyframe: TraceChecker {
    TraceChecker(state: .null, nextStep: 0, startsAtKeyframe: true)
  }

  private init(state: JSONValue, nextStep: Int, startsAtKeyframe: Bool) {
    self.state = state
    self.nextStep = nextStep
    self.lastStep = nil
    self.startsAtKeyframe = startsAtKeyframe
  }

  /// Checks `record`, read from `line` of the trace at `path`, and applies it to ``state``.
  ///
  /// - Throws: ``TraceReadError`` naming `path` and `line`; ``state`` may then be partly changed.
  mutating func check(_ record: TraceRecord, path: String, line: Int) throws(TraceReadError) {
    func failure(_ message: String) -> TraceReadError {
      TraceReadError(path: path, line: line, kind: .malformed, message: message)
    }
    if startsAtKeyframe {
      guard case .keyframe(let keyframe) = record else {
        // A scan's thread starts its run at a keyframe; anything else is a bug.
        throw failure("internal error: a run of lines to replay does not start at a keyframe")
      }
      startsAtKeyframe = false
      state = keyframe.state
      lastStep = keyframe.index
      nextStep = keyframe.index + 1
      return
    }
    switch record {
    case .header:
      throw failure("a second header record; only the first line may be a header")
    case .step(let step):
      try checkStep(index: step.index, patch: step.patch, path: path, line: line)
    case .keyframe(let keyframe):
      guard keyframe.index == lastStep else {
        throw failure(keyframeIndexProblem(keyframe.index, lastStep: lastStep))
      }
      guard keyframe.state == state else {
        throw failure(
          "the keyframe after step \(keyframe.index) differs from the state the patches rebuild")
      }
    case .gap(let gap):
      guard gap.from == nextStep else { throw failure(gapIndexProblem(gap, nextStep)) }
      state = gap.state
      lastStep = gap.to
      nextStep = gap.to + 1
    case .effect, .end, .crash:
      break
    }
  }
}

extension TraceChecker {
  /// Checks a step read as its index and patch, as ``check(_:path:line:)`` checks a step
  /// record: what a scan that does not build the whole record calls.
  mutating func checkStep(index: Int, patch: JSONPatch, path: String, line: Int)
    throws(TraceReadError)
  {
    if startsAtKeyframe {
      throw TraceReadError(
        path: path, line: line, kind: .malformed,
        message: "internal error: a run of lines to replay does not start at a keyframe")
    }
    guard index == nextStep else {
      throw TraceReadError(
        path: path, line: line, kind: .malformed, message: stepIndexProblem(index, nextStep))
    }
    do {
      try patch.apply(to: &state)
    } catch {
      throw TraceReadError(
        path: path, line: line, kind: .malformed, message: patchProblem(step: index, error))
    }
    lastStep = index
    nextStep = index + 1
  }
}

extension TraceChecker {
  /// Checks a step whose patch `apply` applies, returning `false` where it does not: for a
  /// scan, which leaves the words of any problem to the checked reader. `false`, too, when the
  /// index is not the next one; ``state`` may then be partly changed.
  mutating func checkStep(index: Int, applying apply: (inout JSONValue) -> Bool) -> Bool {
    guard !startsAtKeyframe, index == nextStep, apply(&state) else { return false }
    lastStep = index
    nextStep = index + 1
    return true
  }
}

/// Why a step's patch does not apply to the state before it.
func patchProblem(step index: Int, _ error: any Error) -> String {
  "the patch of step \(index) does not apply: \(error)"
}

/// Why a step's index is not the one expected.
func stepIndexProblem(_ index: Int, _ expected: Int) -> String {
  index < expected
    ? "the step index repeats or goes back (step \(index) after step \(expected - 1))"
    : "the step index skips steps (step \(index) where step \(expected) was expected)"
}

/// Why a gap record does not start at the next step.
func gapIndexProblem(_ gap: TraceGap, _ expected: Int) -> String {
  "the gap record declares steps \(gap.from)…\(gap.to) lost where step \(expected) was expected"
}

/// Why a keyframe's index does not name the step before it.
func keyframeIndexProblem(_ index: Int, lastStep: Int?) -> String {
  "the keyframe names step \(index), but follows "
    + (lastStep.map { "step \($0)" } ?? "no step")
}
