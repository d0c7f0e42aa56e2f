import TraceJSON

extension TraceIndex {
  /// A position in a trace and the state there, moved forwards and backwards.
  ///
  /// Moving one step forwards applies that step's patch; moving one step backwards applies its
  /// inverse. A long jump starts again from the nearest keyframe.
  ///
  /// ```swift
  /// var cursor = TraceIndex.Cursor(trace: try TraceIndex(path: "Traces/counter.ndjson"))
  /// try cursor.move(to: 99)
  /// try cursor.backward()
  /// try cursor.continueBackward(untilChanged: [JSONPointer("/count")!])
  /// let count = JSONPointer("/count")!.resolve(in: cursor.state)
  /// ```
  package struct Cursor {
    /// The trace being walked.
    package private(set) var trace: TraceIndex
    /// The step whose result is the current state; `nil` before the first step.
    package private(set) var step: Int?
    /// The state after ``step``, or the initial state.
    package private(set) var state: JSONValue
    /// The trace's first problem, when it has one: a step on or after its line, in reading
    /// order across segments, is refused with it, so the cursor never shows a state the trace
    /// cannot vouch for.
    package var problem: TraceReadError?

    /// A cursor at the initial state, before the first step.
    package init(trace: TraceIndex) {
      self.trace = trace
      state = trace.header.initialState
    }

    /// Walks `trace` from here on: the same file, indexed further as it grew
    /// (``TraceIndex/appended()``), or a later segment that holds the current step.
    package mutating func adopt(_ trace: TraceIndex) {
      precondition(
        step.map { trace.stepIndices.contains($0) } ?? (trace.firstStep == self.trace.firstStep),
        "the cursor's step is not in the adopted trace")
      self.trace = trace
    }

    /// Whether there is a step after the current one.
    package var canMoveForward: Bool { nextIndex < trace.stepIndices.upperBound }
    /// Whether the cursor is past the initial state.
    package var canMoveBackward: Bool { step != nil }

    private var nextIndex: Int { step.map { $0 + 1 } ?? trace.firstStep }

    /// Applies the next step. Returns `false`, and does not move, at the last step.
    ///
    /// Steps the recorder lost (``TraceIndex/gaps``) are crossed in one move, to the last of
    /// them, whose state the trace holds.
    @discardableResult
    package mutating func forward() throws(TraceReadError) -> Bool {
      guard canMoveForward else { return false }
      try refuseAfterProblem(nextIndex)
      if let gap = trace.gaps.first(where: { $0.steps.contains(nextIndex) }) {
        state = try trace.state(afterStep: gap.steps.upperBound)
        step = gap.steps.upperBound
        return true
      }
      let next = try trace.step(at: nextIndex)
      do {
        try trace.apply(next, to: &state)
      } catch {
        try recoverState(after: error)
      }
      step = next.index
      return true
    }

    /// Undoes the current step. Returns `false`, and does not move, at the initial state.
    @discardableResult
    package mutating func backward() throws(TraceReadError) -> Bool {
      guard let step else { return false }
      if let gap = trace.gaps.first(where: { $0.steps.contains(step) }) {
        let before = gap.steps.lowerBound == trace.firstStep ? nil : gap.steps.lowerBound - 1
        state = try trace.state(afterStep: before)
        self.step = before
        return true
      }
      do {
        try trace.unapply(trace.step(at: step), to: &state)
      } catch {
        try recoverState(after: error)
      }
      self.step = step == trace.firstStep ? nil : step - 1
      return true
    }

    /// Rebuilds the current state, which a patch that failed halfway left partly changed, and
    /// rethrows the failure: the cursor stays where it was.
    private mutating func recoverState(
      after error: TraceReadError
    ) throws(TraceReadError) -> Never {
      state = (try? trace.state(afterStep: step)) ?? state
      throw error
    }

    /// Moves to the state after step `target`, or to the initial state when it is `nil`.
    ///
    /// Walks when the target is near, and otherwise starts from the nearest keyframe.
    ///
    /// A target the recorder lost is moved off: to the last lost step, whose state the trace
    /// holds, when moving forwards, and to the step before the gap when moving backwards. The
    /// last lost step itself can be a target.
    package mutating func move(to target: Int?) throws(TraceReadError) {
      try refuseAfterProblem(target)
      // On a copy: a move that fails halfway leaves the cursor where it was.
      var moved = self
      try moved.walk(to: target)
      self = moved
    }

    /// Throws ``problem`` when step `index`'s line is on or after it.
    private func refuseAfterProblem(_ index: Int?) throws(TraceReadError) {
      guard let problem, let index else { return }
      guard let line = problem.line, trace.isStep(index, before: problem.path, line: line) else {
        throw problem
      }
    }

    private mutating func walk(to target: Int?) throws(TraceReadError) {
      var target = target
      if let index = target {
        precondition(trace.stepIndices.contains(index), "step \(index) is not in the trace")
        if let gap = trace.gaps.first(where: { $0.steps.contains(index) }),
          index != gap.steps.upperBound
        {
          let before = gap.steps.lowerBound == trace.firstStep ? nil : gap.steps.lowerBound - 1
          target = position(of: index) > position(of: step) ? gap.steps.upperBound : before
        }
      }
      let from = position(of: step)
      let to = position(of: target)
      let walk = Swift.abs(to - from)
      if walk <= Self.walkLimit {
        while position(of: step) < to { try forward() }
        while position(of: step) > to { try backward() }
      } else {
        state = try trace.state(afterStep: target)
        step = target
      }
    }

    /// How many steps `move(to:)` walks before it prefers a keyframe.
    private static let walkLimit = 64

    /// 0 for the initial state, then 1, 2, … for the steps.
    private func position(of step: Int?) -> Int {
      step.map { $0 - trace.firstStep + 1 } ?? 0
    }

    /// The record of the current step; `nil` at the initial state.
    package func currentStep() throws(TraceReadError) -> TraceStep? {
      try step.map { (index) throws(TraceReadError) in try trace.step(at: index) }
    }

    /// Moves forwards to the next step that changes the value at any of `pointers`.
    ///
    /// Returns `false`, and does not move, when no later step changes one. A value that appears,
    /// disappears or differs counts as a change.
    @discardableResult
    package mutating func continueForward(untilChanged pointers: [JSONPointer])
      throws(TraceReadError) -> Bool
    {
      try continueForward(untilChanged: pointers.map(StatePath.init))
    }

    /// Moves forward to the next step that changes the value at any of `paths`; a path that
    /// names an element by id follows it wherever it moves.
    @discardableResult
    package mutating func continueForward(untilChanged pointers: [StatePath])
      throws(TraceReadError) -> Bool
    {
      var probe = self
      while probe.canMoveForward {
        let before = pointers.map { $0.resolve(in: probe.state) }
        try probe.forward()
        if pointers.map({ $0.resolve(in: probe.state) }) != before
          || !probe.hiddenChanges(under: pointers).isEmpty
        {
          self = probe
          return true
        }
      }
      return false
    }

    /// The hidden values the current step changed in place at or under any of `paths`, each
    /// with the path it is under: their JSON reads `"<redacted>"` before and after, and only
    /// the step's patch says they changed (a `test` and a `replace` of the placeholder).
    package func hiddenChanges(under paths: [StatePath]) -> [(path: StatePath, at: JSONPointer)] {
      guard !trace.header.redactions.isEmpty, let step, !trace.isLost(step),
        let record = try? trace.step(at: step)
      else { return [] }
      let hidden = StateChange.redactedChanges(in: record.patch)
      guard !hidden.isEmpty else { return [] }
      var found: [(path: StatePath, at: JSONPointer)] = []
      for path in paths {
        guard let base = path.pointer(in: state) else { continue }
        for pointer in hidden where pointer.tokens.starts(with: base.tokens) {
          found.append((path, pointer))
        }
      }
      return found
    }

    /// Moves backwards to the closest step before the current one that changed the value at any
    /// of `pointers`.
    ///
    /// The cursor lands on that step, so the state is the one right after the change. Returns
    /// `false`, and does not move, when no earlier step changed one.
    @discardableResult
    package mutating func continueBackward(untilChanged pointers: [JSONPointer])
      throws(TraceReadError) -> Bool
    {
      try continueBackward(untilChanged: pointers.map(StatePath.init))
    }

    /// Moves backwards to the closest earlier step that changed the value at any of `paths`.
    @discardableResult
    package mutating func continueBackward(untilChanged pointers: [StatePath])
      throws(TraceReadError) -> Bool
    {
      // The current step is where we are, not a candidate: look at the steps before it.
      guard canMoveBackward else { return false }
      var probe = self
      try probe.backward()
      while probe.canMoveBackward {
        let after = pointers.map { $0.resolve(in: probe.state) }
        let hidden = !probe.hiddenChanges(under: pointers).isEmpty
        var before = probe
        try before.backward()
        if hidden || pointers.map({ $0.resolve(in: before.state) }) != after {
          self = probe
          return true
        }
        probe = before
      }
      return false
    }
  }
}
