import TraceJSON

extension TraceIndex {
  /// Checks the lines that decide the states after steps `first` through `last` (`nil`: the
  /// initial state): each run of patches from the full state before a step, the initial state or
  /// a keyframe, through the next keyframe, which they must rebuild exactly.
  ///
  /// A command that reads a few states (`state`, `show`, `diff`) thus refuses a corrupted patch
  /// that would change its answer, naming the line `summary` names, for the cost of a keyframe
  /// interval rather than the whole trace. A later segment's header is such a keyframe.
  ///
  /// - Throws: ``TraceReadError`` naming the step line whose patch does not apply, or the keyframe
  ///   that differs from the state the patches before it rebuild.
  package func checkStates(from first: Int?, through last: Int?) throws(TraceReadError) {
    guard let lastStep = stepIndices.last else { return }
    let low = first ?? firstStep - 1
    let high = max(last ?? firstStep - 1, low)
    // The keyframe run each step lies in: (the last keyframe before it, the first at or after it].
    var position = firstKeyframePosition(after: low - 1)
    let gaps = gaps
    while true {
      let before = position > 0 ? keyframes[position - 1] : nil
      let after = position < keyframes.count ? keyframes[position] : nil
      var state = try before.map(keyframeState) ?? header.initialState
      var next = (before?.step ?? firstStep - 1) + 1
      let end = after?.step ?? lastStep
      // Gaps are in step order: the first that could hold `next`, then on from there.
      var gap = gaps.firstIndex { $0.steps.upperBound >= next } ?? gaps.count
      while next <= end {
        if gap < gaps.count, gaps[gap].steps.contains(next) {
          // A gap's state stands in for the steps it lost: there is nothing to rebuild it from.
          next = gaps[gap].steps.upperBound + 1
          gap += 1
          continue
        }
        try apply(step(at: next), to: &state)
        next += 1
      }
      let isGap = after.map { after in gaps.contains { $0.steps.upperBound == after.step } }
      if let after, isGap == false, try keyframeState(after) != state {
        throw after.isSegmentHeader
          ? TraceReadError(
            path: segments[after.segment].path, line: 1, kind: .malformed,
            message: "the segment's initial state is not the state the one before it ends with")
          : TraceReadError(
            path: segments[after.segment].path, line: after.line.number, kind: .malformed,
            message: "the keyframe after step \(after.step) differs from the state the patches "
              + "rebuild")
      }
      guard let after, after.step < high else { return }
      position += 1
    }
  }
}
