import Architecture
import Recorder
import Testing

/// The effect mutation check: the brew timer's generated test (committed in `Mutants/`, checked
/// for drift), compiled against reducers whose state changes are all right but whose effects
/// are not, fails at the step where the broken effect first shows. Before generated tests ran
/// effects (`runsEffects = false` throughout), every one of these passed.
@MainActor
@Suite("Effect mutation check")
struct EffectMutationTests {
  @Test("the generated steps pass against the reducer that recorded them")
  func unchangedReducerPasses() async throws {
    let issues = await withIssueCapture {
      try? await BrewTimerFeatureReplay().steps0To11()
    }
    #expect(issues.map(\.message) == [])
  }

  @Test("a reducer that drops the debounced save fails at step 2, where the save should arrive")
  func droppedSave() async throws {
    let first = try await firstIssue("BrewDroppingSave") {
      try? await BrewDroppingSaveReplay().steps0To11()
    }
    #expect(first.step == 2)
    #expect(first.message.hasPrefix("Expected to receive an action, but received none"))
  }

  @Test("a save without cancelInFlight fails at step 1, whose edit should cancel the first save")
  func droppedCancelInFlight() async throws {
    let first = try await firstIssue("BrewSavingWithoutCancelInFlight") {
      try? await BrewSavingWithoutCancelInFlightReplay().steps0To11()
    }
    #expect(first.step == 1)
    #expect(first.message.hasPrefix("Expected task to finish, but it is still in-flight"))
  }

  @Test("a stop that cancels the wrong id fails at step 7, the stop, as the timer keeps running")
  func wrongCancelID() async throws {
    let first = try await firstIssue("BrewStoppingWrongID") {
      try? await BrewStoppingWrongIDReplay().steps0To11()
    }
    #expect(first.step == 7)
    #expect(first.message.hasPrefix("Expected task to finish, but it is still in-flight"))
  }

  @Test("a timer that ticks every two seconds fails at step 4, its first tick, a second in")
  func changedTimer() async throws {
    let first = try await firstIssue("BrewTickingEveryTwoSeconds") {
      try? await BrewTickingEveryTwoSecondsReplay().steps0To11()
    }
    #expect(first.step == 4)
    #expect(first.message.hasPrefix("Expected to receive an action, but received none"))
  }

  @Test("a reducer that reads the date once more than recorded fails at step 3, where it reads")
  func extraDateRead() async throws {
    let first = try await firstIssue("BrewReadingDateTwice") {
      try? await BrewReadingDateTwiceReplay().steps0To11()
    }
    #expect(first.step == 3)
    #expect(
      first.message
        == "DateGenerator.sequence was asked for more values than the 1 it was given.")
  }

  /// The first issue `run` reports, with the step of the generated file it is reported in:
  /// the step whose lines (`GeneratedTest.blocks`) hold its line.
  private func firstIssue(
    _ reducer: String, _ run: () async -> Void
  ) async throws -> (step: Int?, message: String) {
    let file = try #require(GeneratedFile.all.first { $0.options.reducer == reducer })
    let generated = try file.generate()
    let issues = await withIssueCapture { await run() }
    let first = try #require(issues.first)
    #expect(first.fileID.hasSuffix("\(reducer)Replay.swift"))
    let step = generated.step(atLine: Int(first.line))
    return (step, first.message)
  }
}
