/// Aligns two sequences of lines, each line given as a key that is equal for lines that match
/// (a hash, say, whose matches the caller checks).
///
/// The alignment is a shortest edit script (Myers, "An O(ND) Difference Algorithm and Its
/// Variations", 1986) after the common prefix and suffix are set aside, so inserting one element
/// into a long dump costs one run of insertions. Myers' algorithm takes time and memory that
/// grow with the square of the number of differing lines, so past a hundred or so edits the lines
/// that occur once on each side anchor the alignment instead (as in patience diff), and the
/// stretches between anchors are aligned the same way; a stretch with no unique line gets a
/// shortest edit script up to ``maximumEditDistance`` edits, and past that its lines are paired
/// in order (if both sides have as many) or replaced outright.
package enum LineDiff {
  /// One step of an alignment: a line kept, a line of the first sequence removed, or a line of
  /// the second sequence inserted. Indices are positions in the sequences.
  package enum Step: Equatable, Sendable {
    /// The first sequence's line at the first index matches the second's at the second.
    case equal(Int, Int)
    /// The first sequence's line at this index is removed.
    case delete(Int)
    /// The second sequence's line at this index is inserted.
    case insert(Int)
  }

  /// The number of removed and inserted lines up to which an alignment is a shortest one.
  ///
  /// Myers' algorithm keeps a trace of up to this many squared integers: a million, 4 MB.
  package static let maximumEditDistance = 1_000

  /// The number of edits up to which a stretch is aligned by Myers' algorithm straight away;
  /// past it, unique lines anchor the alignment first, and a stretch with none is aligned by
  /// Myers' algorithm up to ``maximumEditDistance``.
  ///
  /// Myers' cost grows with the square of the edits, so trying the full limit first would spend
  /// a million steps before anchoring a diff in which every element changed.
  private static let quickEditDistance = 128

  /// How many times anchoring on unique lines may nest before the rest is replaced outright.
  private static let maximumAnchoringDepth = 4

  /// The steps that turn `a` into `b`, in order, with the removals of each changed stretch
  /// before its insertions.
  package static func steps(
    _ a: [Int], _ b: [Int], maximumEditDistance: Int = maximumEditDistance
  ) -> [Step] {
    var steps: [Step] = []
    steps.reserveCapacity(max(a.count, b.count))
    align(a, 0..<a.count, b, 0..<b.count, limit: maximumEditDistance, depth: 0, into: &steps)
    return groupingRemovalsFirst(steps)
  }

  // MARK: - Alignment

  private static func align(
    _ a: [Int], _ aRange: Range<Int>, _ b: [Int], _ bRange: Range<Int>,
    limit: Int, depth: Int, into steps: inout [Step]
  ) {
    var aLower = aRange.lowerBound, bLower = bRange.lowerBound
    var aUpper = aRange.upperBound, bUpper = bRange.upperBound
    while aLower < aUpper, bLower < bUpper, a[aLower] == b[bLower] {
      steps.append(.equal(aLower, bLower))
      aLower += 1
      bLower += 1
    }
    var suffixLength = 0
    while aLower < aUpper, bLower < bUpper, a[aUpper - 1] == b[bUpper - 1] {
      aUpper -= 1
      bUpper -= 1
      suffixLength += 1
    }

    let lengthDifference = abs((aUpper - aLower) - (bUpper - bLower))
    let quickLimit = min(limit, quickEditDistance)
    if aLower == aUpper || bLower == bUpper {
      steps += (aLower..<aUpper).map(Step.delete)
      steps += (bLower..<bUpper).map(Step.insert)
    } else if lengthDifference <= quickLimit,
      let script = shortestEditScript(a, aLower..<aUpper, b, bLower..<bUpper, limit: quickLimit)
    {
      steps += script
    } else if depth < maximumAnchoringDepth,
      case let anchors = uniqueAnchors(a, aLower..<aUpper, b, bLower..<bUpper),
      !anchors.isEmpty
    {
      var aNext = aLower, bNext = bLower
      for (aAnchor, bAnchor) in anchors {
        align(a, aNext..<aAnchor, b, bNext..<bAnchor, limit: limit, depth: depth + 1, into: &steps)
        steps.append(.equal(aAnchor, bAnchor))
        aNext = aAnchor + 1
        bNext = bAnchor + 1
      }
      align(a, aNext..<aUpper, b, bNext..<bUpper, limit: limit, depth: depth + 1, into: &steps)
    } else if lengthDifference <= limit, quickLimit < limit,
      let script = shortestEditScript(a, aLower..<aUpper, b, bLower..<bUpper, limit: limit)
    {
      steps += script
    } else if aUpper - aLower == bUpper - bLower {
      // Same length and nothing to anchor on: most likely the same shape with different values
      // (every element's fields changed), so pair the lines in order.
      for (i, j) in zip(aLower..<aUpper, bLower..<bUpper) {
        if a[i] == b[j] {
          steps.append(.equal(i, j))
        } else {
          steps.append(.delete(i))
          steps.append(.insert(j))
        }
      }
    } else {
      steps += (aLower..<aUpper).map(Step.delete)
      steps += (bLower..<bUpper).map(Step.insert)
    }

    for offset in 0..<suffixLength {
      steps.append(.equal(aUpper + offset, bUpper + offset))
    }
  }

  /// Myers' greedy shortest edit script, or `nil` if it needs more than `limit` edits.
  ///
  /// `frontier[k]` is how far along `a` the furthest path with `d` edits reaches on diagonal
  /// `k = x - y`; each round's frontier is kept to walk the path back once both ends are met.
  private static func shortestEditScript(
    _ a: [Int], _ aRange: Range<Int>, _ b: [Int], _ bRange: Range<Int>, limit: Int
  ) -> [Step]? {
    let n = aRange.count, m = bRange.count
    let aStart = aRange.lowerBound, bStart = bRange.lowerBound
    let maximum = min(n + m, limit)
    let offset = maximum + 1
    var frontier = [Int](repeating: 0, count: 2 * maximum + 3)
    // Round d's frontier for diagonals -d...d, stored from index d * d.
    var trace: [Int32] = []

    for d in 0...maximum {
      for k in stride(from: -d, through: d, by: 2) {
        var x =
          k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1])
          ? frontier[offset + k + 1]
          : frontier[offset + k - 1] + 1
        var y = x - k
        while x < n, y < m, a[aStart + x] == b[bStart + y] {
          x += 1
          y += 1
        }
        frontier[offset + k] = x
        if x >= n, y >= m {
          return backtrack(
            trace: trace, edits: d, n: n, m: m, aStart: aStart, bStart: bStart
          )
        }
      }
      for k in -d...d {
        trace.append(Int32(frontier[offset + k]))
      }
    }
    return nil
  }

  private static func backtrack(
    trace: [Int32], edits: Int, n: Int, m: Int, aStart: Int, bStart: Int
  ) -> [Step] {
    var reversed: [Step] = []
    var x = n, y = m
    for d in stride(from: edits, to: 0, by: -1) {
      let row = (d - 1) * (d - 1) + (d - 1)
      func previous(_ k: Int) -> Int { Int(trace[row + k]) }
      let k = x - y
      let previousK = k == -d || (k != d && previous(k - 1) < previous(k + 1)) ? k + 1 : k - 1
      let previousX = previous(previousK)
      let previousY = previousX - previousK
      while x > previousX, y > previousY {
        x -= 1
        y -= 1
        reversed.append(.equal(aStart + x, bStart + y))
      }
      if x == previousX {
        y -= 1
        reversed.append(.insert(bStart + y))
      } else {
        x -= 1
        reversed.append(.delete(aStart + x))
      }
    }
    while x > 0, y > 0 {
      x -= 1
      y -= 1
      reversed.append(.equal(aStart + x, bStart + y))
    }
    return reversed.reversed()
  }

  /// Pairs of positions of lines that occur exactly once in each range, the longest chain of
  /// them that is increasing on both sides.
  private static func uniqueAnchors(
    _ a: [Int], _ aRange: Range<Int>, _ b: [Int], _ bRange: Range<Int>
  ) -> [(Int, Int)] {
    var occurrences: [Int: (aCount: Int, aIndex: Int, bCount: Int, bIndex: Int)] = [:]
    for index in aRange {
      occurrences[a[index], default: (0, 0, 0, 0)].aCount += 1
      occurrences[a[index]]!.aIndex = index
    }
    for index in bRange where occurrences[b[index]] != nil {
      occurrences[b[index]]!.bCount += 1
      occurrences[b[index]]!.bIndex = index
    }
    let candidates = occurrences.values
      .filter { $0.aCount == 1 && $0.bCount == 1 }
      .map { ($0.aIndex, $0.bIndex) }
      .sorted { $0.0 < $1.0 }
    return longestIncreasingChain(candidates)
  }

  /// The longest subsequence of `pairs` (sorted by their first position) whose second positions
  /// increase, by patience sorting.
  private static func longestIncreasingChain(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
    var pileTops: [Int] = []  // index into pairs of the top of each pile
    var predecessor = [Int](repeating: -1, count: pairs.count)
    for (index, pair) in pairs.enumerated() {
      var low = 0, high = pileTops.count
      while low < high {
        let middle = (low + high) / 2
        if pairs[pileTops[middle]].1 < pair.1 { low = middle + 1 } else { high = middle }
      }
      if low > 0 { predecessor[index] = pileTops[low - 1] }
      if low == pileTops.count { pileTops.append(index) } else { pileTops[low] = index }
    }
    var chain: [(Int, Int)] = []
    var index = pileTops.last ?? -1
    while index >= 0 {
      chain.append(pairs[index])
      index = predecessor[index]
    }
    return chain.reversed()
  }

  // MARK: - Arrangement

  /// Puts the removals of each run of changes before its insertions, as diffs are read.
  private static func groupingRemovalsFirst(_ steps: [Step]) -> [Step] {
    var result: [Step] = []
    result.reserveCapacity(steps.count)
    var insertions: [Step] = []
    for step in steps {
      switch step {
      case .equal:
        result += insertions
        insertions.removeAll(keepingCapacity: true)
        result.append(step)
      case .delete:
        result.append(step)
      case .insert:
        insertions.append(step)
      }
    }
    return result + insertions
  }

  /// Which sequence a run of changes is in.
  package enum Side: Sendable {
    /// The first sequence: a run of removals.
    case first
    /// The second sequence: a run of insertions.
    case second
  }

  /// The furthest a run of changes is slid to find its best position.
  private static let maximumSlide = 64

  /// `steps` with each run of only removals or only insertions moved to where `penalty` is
  /// lowest among the positions that align the same lines.
  ///
  /// A run can slide by one line when the line before it equals its last line (or the line
  /// after it its first): inserting `Todo(`, `id: 3`, `)` after a `)` can equally be read as
  /// inserting `)`, `Todo(`, `id: 3` before it. Shortest edit scripts pick one arbitrarily; a
  /// reader wants the run that starts and ends a whole block.
  ///
  /// A run next to a run of the other kind is left where it is, so that a changed line's
  /// removal and insertion stay together.
  ///
  /// - Parameter penalty: The cost of a run on `side` that spans the lines `first...last`; ties
  ///   go to the position furthest down.
  package static func slidingRuns(
    _ steps: [Step], _ a: [Int], _ b: [Int],
    penalty: (_ side: Side, _ first: Int, _ last: Int) -> Int
  ) -> [Step] {
    var steps = steps
    var position = 0
    while position < steps.count {
      guard let side = side(of: steps[position]) else {
        position += 1
        continue
      }
      var end = position + 1
      while end < steps.count, Self.side(of: steps[end]) == side { end += 1 }
      position = slide(&steps, run: position..<end, side: side, a, b, penalty: penalty)
    }
    return steps
  }

  private static func side(of step: Step) -> Side? {
    switch step {
    case .equal: nil
    case .delete: .first
    case .insert: .second
    }
  }

  /// Slides one run; returns the position after the steps it rewrote.
  private static func slide(
    _ steps: inout [Step], run: Range<Int>, side: Side, _ a: [Int], _ b: [Int],
    penalty: (Side, Int, Int) -> Int
  ) -> Int {
    let keys = side == .first ? a : b
    let isolated =
      (run.lowerBound == 0 || Self.side(of: steps[run.lowerBound - 1]) == nil)
      && (run.upperBound == steps.count || Self.side(of: steps[run.upperBound]) == nil)
    guard isolated else { return run.upperBound }
    // The line's index on the run's side, and on the other side for an equal step.
    func indices(_ step: Step) -> (own: Int, other: Int)? {
      guard case let .equal(i, j) = step else { return nil }
      return side == .first ? (i, j) : (j, i)
    }
    func ownIndex(_ step: Step) -> Int {
      switch step {
      case let .delete(i), let .insert(i): i
      case let .equal(i, j): side == .first ? i : j
      }
    }
    let start = ownIndex(steps[run.lowerBound])
    let end = ownIndex(steps[run.upperBound - 1]) + 1
    let length = end - start

    var up = 0
    while up < maximumSlide, run.lowerBound - up - 1 >= 0,
      let before = indices(steps[run.lowerBound - up - 1]), before.own == start - up - 1,
      keys[start - up - 1] == keys[end - up - 1]
    {
      up += 1
    }
    var down = 0
    while down < maximumSlide, run.upperBound + down < steps.count,
      let after = indices(steps[run.upperBound + down]), after.own == end + down,
      keys[start + down] == keys[end + down]
    {
      down += 1
    }
    guard up > 0 || down > 0 else { return run.upperBound }

    var best = 0
    var bestPenalty = penalty(side, start, end - 1)
    for shift in -up...down where shift != 0 {
      let cost = penalty(side, start + shift, end - 1 + shift)
      if cost < bestPenalty || (cost == bestPenalty && shift > best) {
        best = shift
        bestPenalty = cost
      }
    }
    guard best != 0 else { return run.upperBound }

    let segment = (run.lowerBound - up)..<(run.upperBound + down)
    let otherIndices = steps[segment].compactMap { indices($0)?.other }
    let firstOwn = start - up
    var rewritten: [Step] = []
    rewritten.reserveCapacity(segment.count)
    func equal(_ own: Int, _ other: Int) -> Step {
      side == .first ? .equal(own, other) : .equal(other, own)
    }
    for t in 0..<(up + best) {
      rewritten.append(equal(firstOwn + t, otherIndices[t]))
    }
    for own in (start + best)..<(end + best) {
      rewritten.append(side == .first ? .delete(own) : .insert(own))
    }
    for t in (up + best)..<(up + down) {
      rewritten.append(equal(firstOwn + length + t, otherIndices[t]))
    }
    steps.replaceSubrange(segment, with: rewritten)
    return segment.upperBound
  }
}
