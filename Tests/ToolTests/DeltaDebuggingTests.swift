import Testing

@testable import tca_replay

@Suite("ddmin")
struct DeltaDebuggingTests {
  @Test("finds the 3 elements of 2,000 that fail together, in fewer tests than greedy removal")
  func threeOfTwoThousand() {
    let needed: Set = [17, 1_203, 1_998]
    var tests = 0
    let result = DeltaDebugging.minimize(Array(0..<2_000)) { candidate in
      tests += 1
      return needed.isSubset(of: candidate)
    }
    #expect(result == [17, 1_203, 1_998])
    // Removing one element at a time would test each of the 2,000 at least once.
    #expect(tests < 400, "\(tests) tests")
  }

  @Test("the result is 1-minimal: removing any one element makes it pass")
  func oneMinimal() {
    // Fails when the candidate holds two different elements summing to 100: an input with
    // many answers, each of two elements.
    func fails(_ candidate: [Int]) -> Bool {
      let values = Set(candidate)
      return values.contains { values.contains(100 - $0) && $0 != 50 }
    }
    let input = Array(stride(from: 0, to: 300, by: 2))
    let result = DeltaDebugging.minimize(input, fails: fails)
    #expect(fails(result))
    for index in result.indices {
      var smaller = result
      smaller.remove(at: index)
      #expect(!fails(smaller), "still fails without \(result[index])")
    }
  }

  @Test("a failure that needs none of the elements shrinks to none")
  func none() {
    #expect(DeltaDebugging.minimize([1, 2, 3]) { _ in true } == [])
  }

  @Test("chunks cover the elements once, in order, in near-equal sizes")
  func split() {
    let chunks = DeltaDebugging.split(Array(0..<10), into: 4)
    #expect(chunks.map(\.count) == [2, 2, 3, 3])
    #expect(chunks.flatMap { $0 } == Array(0..<10))
  }
}
