import LongSessionApps
import Testing

/// The size harness counts what issue 35's bar means: each step's block by its `// Step N`
/// marker (after its statement, or on a line above it), with the lines before it since the
/// previous step and the `finish()` awaits right after it; and the file over the steps.
@Suite("Generated test size by step markers")
struct GeneratedTestSizeTests {
  static let file = """
    import Testing

    @Test func steps0To2() async {
      let store = TestStore(initialState: Feature.State()) {
        Feature()
      }
      await store.send(.tapped) { $0.count = 1 }  // Step 0
      let step1 = await store.send(.tapped)  // Step 1
      await clock.advance(by: .seconds(1))
      await store.receive(.loaded([  // Step 2, effect of 1
        1,
        2,
      ])) {
        $0.values = [1, 2]
      }
      await step1.finish()
    }

    @Test func steps3To3() async {
      // Step 3
      await store.send(.closed(Payload(
        a: 1
      )))
    }

    """

  @Test("each step's block is its statement, the lines since the step before, and its finish awaits")
  func linesByStep() {
    let size = GeneratedTestSize(text: Self.file, steps: 4)
    #expect(size.linesByStep == [0: 1, 1: 1, 2: 8, 3: 4])
    #expect(size.medianLinesPerStep == 2.5)
    #expect(size.fileLines == 24)
    #expect(size.fileLinesPerStep == 6)
  }

  @Test("a line maps to the step whose block holds it; setup lines map to none")
  func stepAtLine() {
    #expect(GeneratedTestSize.step(atLine: 4, in: Self.file) == nil)
    #expect(GeneratedTestSize.step(atLine: 7, in: Self.file) == 0)
    #expect(GeneratedTestSize.step(atLine: 9, in: Self.file) == 2)
    #expect(GeneratedTestSize.step(atLine: 15, in: Self.file) == 2)
    #expect(GeneratedTestSize.step(atLine: 16, in: Self.file) == 2)
    #expect(GeneratedTestSize.step(atLine: 21, in: Self.file) == 3)
  }
}
