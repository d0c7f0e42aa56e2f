import LongSessionApps
import Testing

/// The size harness counts what issue 35's bar means: each step's block by its `// Step N`
/// comment, up to the next step or the end of its function, and the file over the steps.
@Suite("Generated test size by step comments")
struct GeneratedTestSizeTests {
  static let file = """
    import Testing

    @Test func steps0To2() async {
      let store = TestStore(initialState: Feature.State()) {
        Feature()
      }

      // Step 0: sent
      await store.send(.tapped) {
        $0.count = 1
      }

      // Step 1: sent
      await store.send(.tapped)

      // Step 2: from the effect of step 1
      await store.receive(.loaded([
        1,
        2,
      ])) {
        $0.values = [1, 2]
      }
    }

    @Test func steps3To3() async {
      // Step 3: sent
      await store.send(.closed)
    }

    """

  @Test("each step's block runs to the next step or the end of its function, one blank line kept")
  func linesByStep() {
    let size = GeneratedTestSize(text: Self.file, steps: 4)
    #expect(size.linesByStep == [0: 5, 1: 3, 2: 7, 3: 2])
    #expect(size.medianLinesPerStep == 4)
    #expect(size.fileLines == 28)
    #expect(size.fileLinesPerStep == 7)
  }

  @Test("a line maps to the step whose block holds it; lines before any step map to none")
  func stepAtLine() {
    #expect(GeneratedTestSize.step(atLine: 4, in: Self.file) == nil)
    #expect(GeneratedTestSize.step(atLine: 10, in: Self.file) == 0)
    #expect(GeneratedTestSize.step(atLine: 20, in: Self.file) == 2)
    #expect(GeneratedTestSize.step(atLine: 27, in: Self.file) == 3)
  }
}
