import Architecture
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Checks that `steps` is an alignment of `a` and `b`: every line of each used once, in order,
/// with equal steps pairing equal keys. Returns the number of equal steps.
private func checkAlignment(
  _ steps: [LineDiff.Step], _ a: [Int], _ b: [Int],
  sourceLocation: SourceLocation = #_sourceLocation
) -> Int {
  var nextA = 0, nextB = 0, equal = 0
  for step in steps {
    switch step {
    case let .equal(i, j):
      #expect(i == nextA && j == nextB && a[i] == b[j], sourceLocation: sourceLocation)
      nextA += 1
      nextB += 1
      equal += 1
    case let .delete(i):
      #expect(i == nextA, sourceLocation: sourceLocation)
      nextA += 1
    case let .insert(j):
      #expect(j == nextB, sourceLocation: sourceLocation)
      nextB += 1
    }
  }
  #expect(nextA == a.count && nextB == b.count, sourceLocation: sourceLocation)
  return equal
}

/// The length of a longest common subsequence, by the textbook quadratic table.
private func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
  var previous = [Int](repeating: 0, count: b.count + 1)
  for x in a {
    var current = [0]
    for (j, y) in b.enumerated() {
      current.append(x == y ? previous[j] + 1 : max(previous[j + 1], current[j]))
    }
    previous = current
  }
  return previous[b.count]
}

@Suite("LineDiff")
struct LineDiffTests {
  @Test("Alignments are valid and keep a longest common subsequence (a shortest edit script)")
  func shortestEditScripts() {
    var random = SplitMix64(seed: 42)
    for _ in 0..<200 {
      let a = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        Int.random(in: 0..<5, using: &random)
      }
      var b = a
      for _ in 0..<Int.random(in: 0...8, using: &random) {
        if !b.isEmpty, Bool.random(using: &random) {
          b.remove(at: Int.random(in: 0..<b.count, using: &random))
        } else {
          let position = Int.random(in: 0...b.count, using: &random)
          b.insert(Int.random(in: 0..<5, using: &random), at: position)
        }
      }
      let steps = LineDiff.steps(a, b)
      #expect(checkAlignment(steps, a, b) == longestCommonSubsequence(a, b))
    }
  }

  @Test("Inserting one line into a long sequence is a single insertion")
  func singleInsertion() {
    let a = Array(0..<10_000)
    var b = a
    b.insert(-1, at: 5_000)
    let steps = LineDiff.steps(a, b)
    #expect(steps.filter { if case .equal = $0 { false } else { true } } == [.insert(5_000)])
  }

  @Test("Each changed stretch lists its removals before its insertions")
  func removalsFirst() {
    let steps = LineDiff.steps([1, 2, 3, 4], [1, 5, 6, 4])
    #expect(steps == [.equal(0, 0), .delete(1), .delete(2), .insert(1), .insert(2), .equal(3, 3)])
  }

  @Test("Past the edit-distance limit, unique lines anchor a still valid alignment")
  func anchoredFallback() {
    // 0...999 stay in place, each followed by a line that changes: 2,000 edits in all.
    let a = (0..<1_000).flatMap { [$0, -1] }
    let b = (0..<1_000).flatMap { [$0, -2] }
    let steps = LineDiff.steps(a, b, maximumEditDistance: 10)
    #expect(checkAlignment(steps, a, b) == 1_000)
  }

  @Test("Past the limit with nothing unique, stretches of equal length pair line by line")
  func pairedFallback() {
    let a = (0..<3_000).map { $0 % 3 == 0 ? 7 : 8 }
    let b = (0..<3_000).map { $0 % 3 == 0 ? 7 : 9 }
    let steps = LineDiff.steps(a, b, maximumEditDistance: 10)
    #expect(checkAlignment(steps, a, b) == 1_000)
  }

  @Test("Sequences with nothing in common of 10,000 lines each align quickly")
  func largeDisjointSequences() {
    let a = Array(0..<10_000)
    let b = Array(10_000..<20_000)
    // NB: the thread's CPU time, not the wall clock's: a loaded machine must not fail this.
    let start = threadCPUSeconds()
    let steps = LineDiff.steps(a, b)
    let seconds = threadCPUSeconds() - start
    #expect(checkAlignment(steps, a, b) == 0)
    #expect(seconds < 2, "\(seconds) s of CPU")
  }

  @Test("A run slides to where its penalty is lowest among equivalent positions")
  func slidingRuns() {
    // Inserting "( x )" after "( a )" can be read as inserting ") ( x" or "x ) (": the penalty
    // below prefers a run that starts with "(".
    let open = 0, close = 1, a = 2, x = 3
    let before = [open, a, close]
    let after = [open, a, close, open, x, close]
    let shifted: [LineDiff.Step] = [
      .equal(0, 0), .equal(1, 1), .insert(2), .insert(3), .insert(4), .equal(2, 5),
    ]
    let slid = LineDiff.slidingRuns(shifted, before, after) { _, first, _ in
      after[first] == open ? 0 : 1
    }
    #expect(slid == [.equal(0, 0), .equal(1, 1), .equal(2, 2), .insert(3), .insert(4), .insert(5)])
  }
}

/// The CPU time the calling thread has used, in seconds.
private func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
