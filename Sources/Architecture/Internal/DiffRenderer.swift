/// Prints aligned dump lines as a diff body, showing changes in full and folding the rest.
///
/// The rows are read as a tree by indentation: an entry is a line together with the deeper
/// lines after it and, if it opens a block, the line closing that block. At each level:
/// - an entry containing a change prints its first line, its children (recursively, by these
///   rules) and its closing line;
/// - an unchanged entry within `context` entries of a changed one prints on one line, a block
///   folded as `label: Type(…)`;
/// - other unchanged entries print as one `… (N unchanged)` line per run, where N counts
///   entries (a run of one prints folded, as it takes a line either way).
struct DiffRenderer {
  /// Whether a row is in both dumps, only the first (removed) or only the second (added).
  enum Change {
    case unchanged, removed, added
  }

  /// One line of the aligned dumps: a line of `rhs`, or of `lhs` if it was removed.
  struct Row {
    var change: Change
    var index: Int
  }

  /// An entry at one level: rows `range`, the last of them closing the block if `isClosed`.
  private struct Entry {
    var range: Range<Int>
    var isClosed: Bool
  }

  private let lhs: [DumpLine]
  private let rhs: [DumpLine]
  private let rows: [Row]
  private let context: Int
  /// `changedBefore[i]` is the number of changed rows before row `i`.
  private let changedBefore: [Int]
  /// Each row's depth, read many times over while splitting levels into entries.
  private let depths: [Int]
  private var output: [String] = []

  init(lhs: [DumpLine], rhs: [DumpLine], rows: [Row], context: Int) {
    self.lhs = lhs
    self.rhs = rhs
    self.rows = rows
    self.context = max(0, context)
    var changedBefore = [0]
    changedBefore.reserveCapacity(rows.count + 1)
    for row in rows {
      let changed = row.change == .unchanged ? 0 : 1
      changedBefore.append(changedBefore[changedBefore.count - 1] + changed)
    }
    self.changedBefore = changedBefore
    depths = rows.map { ($0.change == .removed ? lhs : rhs)[$0.index].depth }
  }

  /// The diff body: one line a row shown, joined by line breaks.
  mutating func render() -> String {
    output = []
    renderLevel(rows.indices, changeBefore: false, changeAfter: false)
    return output.joined(separator: "\n")
  }

  /// Renders the entries in `range`, one level; `changeBefore` and `changeAfter` say whether the
  /// enclosing block's opening or closing line changed, which counts as a change next to the
  /// first or last entry.
  private mutating func renderLevel(_ range: Range<Int>, changeBefore: Bool, changeAfter: Bool) {
    let entries = self.entries(in: range)
    guard !entries.isEmpty else { return }

    // Distance in entries from each entry to the nearest change.
    var distance = [Int](repeating: .max, count: entries.count)
    var last = changeBefore ? -1 : nil as Int?
    for index in entries.indices {
      if hasChange(entries[index]) { last = index }
      if let last { distance[index] = index - last }
    }
    var next = changeAfter ? entries.count : nil as Int?
    for index in entries.indices.reversed() {
      if hasChange(entries[index]) { next = index }
      if let next { distance[index] = min(distance[index], next - index) }
    }

    var hidden: [Entry] = []
    for (index, entry) in entries.enumerated() {
      if distance[index] == 0 {
        flush(&hidden)
        renderExpanded(entry)
      } else if distance[index] <= context {
        flush(&hidden)
        renderFolded(entry)
      } else {
        hidden.append(entry)
      }
    }
    flush(&hidden)
  }

  /// Splits `range` into entries: a line, the deeper lines after it, and its closing line.
  private func entries(in range: Range<Int>) -> [Entry] {
    var entries: [Entry] = []
    var start = range.lowerBound
    while start < range.upperBound {
      let depth = depths[start]
      var end = start + 1
      while end < range.upperBound, depths[end] > depth { end += 1 }
      var isClosed = false
      if end < range.upperBound, depths[end] == depth, line(start).closing != nil,
        line(end).isClosing
      {
        end += 1
        isClosed = true
      }
      entries.append(Entry(range: start..<end, isClosed: isClosed))
      start = end
    }
    return entries
  }

  private func hasChange(_ entry: Entry) -> Bool {
    changedBefore[entry.range.upperBound] > changedBefore[entry.range.lowerBound]
  }

  private mutating func renderExpanded(_ entry: Entry) {
    let first = entry.range.lowerBound
    emit(rows[first])
    guard entry.range.count > 1 else { return }
    let closing = entry.isClosed ? entry.range.upperBound - 1 : nil
    renderLevel(
      (first + 1)..<(closing ?? entry.range.upperBound),
      changeBefore: rows[first].change != .unchanged,
      changeAfter: closing.map { rows[$0].change != .unchanged } ?? false
    )
    if let closing { emit(rows[closing]) }
  }

  private mutating func renderFolded(_ entry: Entry) {
    let first = line(entry.range.lowerBound)
    guard entry.range.count > 1 else {
      emit(rows[entry.range.lowerBound])
      return
    }
    let last = line(entry.range.upperBound - 1)
    let text = first.label + first.text + "…" + (first.closing ?? "") + (last.hasComma ? "," : "")
    output.append("  " + indentation(first.depth) + text)
  }

  private mutating func flush(_ hidden: inout [Entry]) {
    if hidden.count == 1 {
      renderFolded(hidden[0])
    } else if let first = hidden.first {
      let depth = line(first.range.lowerBound).depth
      output.append("  " + indentation(depth) + "… (\(hidden.count) unchanged)")
    }
    hidden.removeAll(keepingCapacity: true)
  }

  private mutating func emit(_ row: Row) {
    let marker =
      switch row.change {
      case .unchanged: "  "
      case .removed: "\u{2212} "
      case .added: "+ "
      }
    output.append(marker + (row.change == .removed ? lhs : rhs)[row.index].rendered())
  }

  /// The dump line shown for row `index`.
  private func line(_ index: Int) -> DumpLine {
    let row = rows[index]
    return row.change == .removed ? lhs[row.index] : rhs[row.index]
  }

  private func indentation(_ depth: Int) -> String {
    String(repeating: "  ", count: depth)
  }
}
