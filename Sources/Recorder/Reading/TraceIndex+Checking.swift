import TraceJSON

extension TraceIndex {
  /// Checks the lines that decide the states after steps `first` through `last` (`nil`: the
  /// initial state): each run of patches from the full state before a step, the initial state or
  /// a keyframe, through the next keyframe, which they must rebuild exactly.
  ///
  /// A command that reads a few states (`state`, `show`, `diff`) thus refuses a corrupted patch
  /// that would change its answer, naming the line `summary` names, for the cost of a keyframe
  /// interval rather than the whole trace.
  ///
  /// - Throws: ``TraceReadError`` naming the step line whose patch does not apply, or the keyframe
  ///   that differs from the state the patches before it rebuild.
  package func checkStates(from first: Int?, through last: Int?) throws(TraceReadError) {
    guard let lastStep = stepIndices.last else { return }
    let low = first ?? firstStep - 1
    let high = max(last ?? firstStep - 1, low)
    // The keyframe run each step lies in: (the last keyframe before it, the first at or after it].
    var position = keyframes.firstIndex { $0.step >= low } ?? keyframes.count
    while true {
      let before = position > 0 ? keyframes[position - 1] : nil
      let after = position < keyframes.count ? keyframes[position] : nil
      var state = try before.map(keyframeState) ?? header.initialState
      var next = (before?.step ?? firstStep - 1) + 1
      let end = after?.step ?? lastStep
      while next <= end {
        if !gaps.contains(where: { $0.steps.contains(next) }) {
          try apply(step(at: next), to: &state)
        }
        next += 1
      }
      // A gap's state stands in for the steps it lost: there is nothing to rebuild it from.
      let isGap = after.map { after in gaps.contains { $0.steps.upperBound == after.step } }
      if let after, isGap == false, try keyframeState(after) != state {
        throw TraceReadError(
          path: path, line: after.line.number, kind: .malformed,
          message: "the keyframe after step \(after.step) differs from the state the patches "
            + "rebuild")
      }
      guard let after, after.step < high else { return }
      position += 1
    }
  }
}
