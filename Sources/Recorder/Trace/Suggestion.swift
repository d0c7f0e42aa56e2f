/// What a misspelt name probably meant: `lgo` is `log`, `--chnaged` is `--changed`.
///
/// Only a close name is suggested (a third of its letters wrong at most, one for a short one):
/// `--steps` is not offered for `--zebra`. The tool's commands and options, the stepper's commands,
/// a what-if's action case and a state path's member or case use it.
package enum Suggestion {
  /// The candidate closest to `word`, if it is close enough; the first of equally close ones.
  package static func closest(to word: String, in candidates: [String]) -> String? {
    let typed = Array(word.drop { $0 == "-" })
    guard !typed.isEmpty else { return nil }
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let name = Array(candidate.drop { $0 == "-" })
      let distance = Self.distance(typed, name)
      guard distance > 0, distance <= max(1, name.count / 3) else { continue }
      if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    return best?.name
  }

  /// `message` with `; did you mean '…'?` added when a candidate is close to `word`.
  package static func message(
    _ message: String, for word: String, in candidates: [String]
  ) -> String {
    guard let name = closest(to: word, in: candidates) else { return message }
    return message + "; did you mean '\(name)'?"
  }

  /// The edits that turn `a` into `b`: inserting, deleting or replacing a character, or
  /// swapping two neighbours (the optimal string alignment distance).
  package static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // Three rows of the table: two back for a swap, one back, and this one.
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
