import Architecture
import Recorder
import Testing

/// The mutation check: a generated test, compiled against a deliberately broken reducer,
/// fails at the first step the bug affects, with TCA's expected/actual diff.
///
/// The generated functions in `Mutants/` are the counter trace's first steps written by
/// `gen-test` (checked for drift like the committed tests) for the reducers in
/// `CounterMutants.swift`. They run here with their failures captured, so the suite stays
/// green while it proves the failures happen, and where.
@MainActor
@Suite("Mutation check")
struct MutationTests {
  @Test("a reducer that increments by two fails at step 0, the first increment, showing the count")
  func incrementingByTwo() async throws {
    let generated = try mutant("CounterIncrementingByTwo").generate()
    let issues = await withIssueCapture {
      try? await CounterIncrementingByTwoReplay().steps0To12()
    }
    let first = try #require(issues.first)
    #expect(first.fileID.hasSuffix("CounterIncrementingByTwoReplay.swift"))
    #expect(first.line == UInt(generated.lines[0] ?? 0))
    #expect(
      first.message == """
        A state change does not match expectation: …

              CounterFeature.State(
            −   count: 1,
            +   count: 2,
                fact: nil,
                factError: nil,
                … (2 unchanged)
              )

        (Expected: −, Actual: +)
        """
    )
  }

  @Test("a reducer whose timer ticks add two fails at step 7, the first tick an effect fed in")
  func tickingByTwo() async throws {
    let generated = try mutant("CounterTickingByTwo").generate()
    let issues = await withIssueCapture {
      try? await CounterTickingByTwoReplay().steps0To12()
    }
    let first = try #require(issues.first)
    #expect(first.line == UInt(generated.lines[7] ?? 0))
    #expect(first.message.hasPrefix("A state change does not match expectation: …"))
    #expect(first.message.contains("−   count: 3,\n"))
    #expect(first.message.contains("+   count: 4,\n"))
    #expect(first.message.hasSuffix("(Expected: −, Actual: +)"))
  }

  @Test("the same generated steps pass against the reducer that recorded them")
  func unchangedReducerPasses() async throws {
    let issues = await withIssueCapture {
      try? await CounterFeatureReplay().steps0To12()
    }
    #expect(issues.isEmpty)
  }

  private func mutant(_ reducer: String) throws -> GeneratedFile {
    try #require(GeneratedFile.all.first { $0.options.reducer == reducer })
  }
}
