/// The lines that differ between the dumps of two values, or `nil` if they dump the same.
///
/// Removed lines (`lhs` only) start with `−` (U+2212), inserted lines (`rhs` only) with `+` and
/// unchanged lines with a space; each marker is followed by a space and the dumped line. Only
/// changed entries print in full: unchanged entries near a change print folded, as
/// `Todo(…)`, and longer runs of them as `… (N unchanged)`, inside the structure lines that
/// enclose the change:
///
/// ```
///   CounterFeature.State(
/// −   count: 2,
/// +   count: 1,
///     isLoading: false
///   )
/// ```
///
/// Lines are matched without their collection indices, so inserting one element into a long
/// array prints one inserted block; elements that moved print with their index in `rhs`.
public func diff<T>(_ lhs: T, _ rhs: T) -> String? {
  var lhsDumper = Dumper()
  lhsDumper.dump(lhs)
  var rhsDumper = Dumper()
  rhsDumper.dump(rhs)
  return diff(lines: lhsDumper.lines, rhsDumper.lines)
}

/// The body of a diff between two dumps given as lines; see ``diff(_:_:)``.
///
/// - Parameter context: How many unchanged entries next to a change print folded rather than
///   being counted in a `… (N unchanged)` line.
package func diff(lines lhs: [DumpLine], _ rhs: [DumpLine], context: Int = 2) -> String? {
  let lhsKeys = lhs.map(matchKey)
  let rhsKeys = rhs.map(matchKey)
  var steps = LineDiff.steps(lhsKeys, rhsKeys)
  steps = LineDiff.slidingRuns(steps, lhsKeys, rhsKeys) { side, first, last in
    let lines = side == .first ? lhs : rhs
    return 2 * (lines[first].depth + lines[last].depth)
      + (lines[first].isClosing ? 1 : 0)
      + (lines[last].closing != nil ? 1 : 0)
  }

  var rows: [DiffRenderer.Row] = []
  rows.reserveCapacity(steps.count)
  var hasChange = false
  for step in steps {
    switch step {
    case let .equal(i, j):
      if matches(lhs[i], rhs[j]) {
        rows.append(DiffRenderer.Row(change: .unchanged, index: j))
      } else {
        // Different lines whose hashes collided: show them as changed.
        rows.append(DiffRenderer.Row(change: .removed, index: i))
        rows.append(DiffRenderer.Row(change: .added, index: j))
        hasChange = true
      }
    case let .delete(i):
      rows.append(DiffRenderer.Row(change: .removed, index: i))
      hasChange = true
    case let .insert(j):
      rows.append(DiffRenderer.Row(change: .added, index: j))
      hasChange = true
    }
  }
  guard hasChange else { return nil }

  var renderer = DiffRenderer(lhs: lhs, rhs: rhs, rows: rows, context: context)
  return renderer.render()
}

/// What two dump lines must share to be matched, hashed: everything but a collection index and
/// the separating comma, both of which change when a sibling is inserted or removed.
///
/// Aligning hashes rather than the lines keeps the alignment to integer comparisons; each match
/// is then checked with ``matches(_:_:)``, so a collision cannot hide a difference.
private func matchKey(_ line: DumpLine) -> Int {
  var hasher = Hasher()
  hasher.combine(line.depth)
  hasher.combine(line.labelIsIndex ? "" : line.label)
  hasher.combine(line.text)
  hasher.combine(line.closing != nil)
  return hasher.finalize()
}

/// Whether two lines aligned by their ``matchKey(_:)`` really match.
private func matches(_ lhs: DumpLine, _ rhs: DumpLine) -> Bool {
  lhs.depth == rhs.depth
    && lhs.text == rhs.text
    && (lhs.closing != nil) == (rhs.closing != nil)
    && (lhs.labelIsIndex && rhs.labelIsIndex || lhs.label == rhs.label)
}
