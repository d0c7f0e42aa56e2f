/// Delta debugging's `ddmin` (Zeller and Hildebrandt, 2002): a subsequence of a failing input
/// that still fails and is 1-minimal, such that removing any one element makes it pass.
///
/// It splits the input into `n` chunks and tries each chunk alone, then each complement (the
/// input without one chunk); the first that fails becomes the input. When none fails it splits
/// finer, up to single elements. Greedy removal of one element at a time finds a 1-minimal
/// input too, but tries each of thousands of elements; ddmin drops whole chunks of irrelevant
/// ones at once.
enum DeltaDebugging {
  /// The 1-minimal failing subsequence of `input`, which must fail; `fails` is called with
  /// subsequences of it, in order.
  static func minimize<Element>(
    _ input: [Element], fails: ([Element]) throws -> Bool
  ) rethrows -> [Element] {
    // The failure may need none of the elements (only what is always kept).
    if !input.isEmpty, try fails([]) { return [] }
    var current = input
    var granularity = 2
    while current.count >= 2 {
      let chunks = split(current, into: granularity)
      var reduced = false
      for chunk in chunks where try fails(chunk) {
        current = chunk
        granularity = 2
        reduced = true
        break
      }
      if !reduced, chunks.count > 2 {
        for index in chunks.indices {
          let complement = chunks.indices.filter { $0 != index }.flatMap { chunks[$0] }
          if try fails(complement) {
            current = complement
            granularity = max(granularity - 1, 2)
            reduced = true
            break
          }
        }
      }
      if !reduced {
        guard granularity < current.count else { break }
        granularity = min(current.count, granularity * 2)
      }
    }
    return current
  }

  /// `elements` in `count` contiguous chunks of near-equal size, in order.
  static func split<Element>(_ elements: [Element], into count: Int) -> [[Element]] {
    let count = min(max(count, 1), elements.count)
    var chunks: [[Element]] = []
    var start = 0
    for index in 0..<count {
      let end = start + (elements.count - start) / (count - index)
      chunks.append(Array(elements[start..<end]))
      start = end
    }
    return chunks
  }
}
