import Architecture
import Counter
import Foundation
import Recorder
import Testing
import TraceJSON

@Suite("Comparing two traces")
struct TraceComparisonTests {
  /// Records `actions` through `reducer` to a temporary trace.
  static func record<R: Reducer>(_ reducer: R, _ state: R.State, _ actions: [R.Action]) throws
    -> String where R.State: Codable, R.Action: Codable
  {
    let path = Paths.temporary("compare.ndjson")
    let recorder = try TraceRecorder(path: path)
    let recording = reducer.recording(to: recorder)
    var state = state
    for action in actions { _ = recording.reduce(into: &state, action: action) }
    try recorder.close()
    return path
  }

  static let session: [CounterFeature.Action] = [
    .incrementButtonTapped, .incrementButtonTapped, .factButtonTapped, .factResponse("2 is prime."),
    .incrementButtonTapped, .decrementButtonTapped, .resetButtonTapped,
  ]

  @Test("two recordings of the same session agree")
  func same() async throws {
    let a = try Self.record(CounterFeature(), .init(), Self.session)
    let b = try Self.record(CounterFeature(), .init(), Self.session)
    let comparison = try TraceComparison(a, b)
    #expect(comparison.firstDifference == nil)
    #expect(comparison.matchingSteps == Self.session.count)
  }

  @Test("traces whose actions differ at step 4 are reported at step 4, in the action")
  func actionDiffers() async throws {
    var other = Self.session
    other[4] = .decrementButtonTapped
    let a = try Self.record(CounterFeature(), .init(), Self.session)
    let b = try Self.record(CounterFeature(), .init(), other)
    let difference = try #require(try TraceComparison(a, b).firstDifference)
    #expect(difference.step == 4)
    #expect(difference.kind == .action)
    #expect(difference.labelA == ".incrementButtonTapped")
    #expect(difference.labelB == ".decrementButtonTapped")
    #expect(difference.differences.map(\.path.description) == ["/count"])
    #expect(difference.precedingSteps.map(\.index) == [0, 1, 2, 3])
  }

  @Test("traces of the same actions whose states differ at step 3 are reported there, with the paths")
  func stateDiffers() async throws {
    let changed = Reduce<CounterFeature.State, CounterFeature.Action> { state, action in
      let effect = CounterFeature().reduce(into: &state, action: action)
      if case .factResponse = action { state.isLoading = true }
      return effect
    }
    let a = try Self.record(CounterFeature(), .init(), Self.session)
    let b = try Self.record(changed, .init(), Self.session)
    let difference = try #require(try TraceComparison(a, b).firstDifference)
    #expect(difference.step == 3)
    #expect(difference.kind == .state)
    #expect(difference.differences == [
      StateDifference(path: JSONPointer("/isLoading")!, expected: false, actual: true)
    ])
  }

  @Test("traces whose steps read different dependency values show both sets of values")
  func dependenciesDiffer() async throws {
    /// Stores a fresh UUID each time it is asked.
    struct Stamp: Reducer {
      struct State: Codable, Equatable { var id: UUID? }
      enum Action: Codable, Equatable { case stamp }
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.id = uuid()
        return .none
      }
    }
    func record(_ uuids: UUIDGenerator) throws -> String {
      try withDependencies { $0.uuid = uuids } operation: {
        try Self.record(Stamp(), .init(), [.stamp])
      }
    }
    let a = try record(.incrementing)
    let b = try record(.constant(UUID(uuidString: "11111111-0000-0000-0000-000000000000")!))
    let difference = try #require(try TraceComparison(a, b).firstDifference)
    #expect(difference.kind == .dependencies)
    let run = try await Run.tool("compare", a, b)
    #expect(run.status == 1)
    // In Swift form, as `show` prints reads and `state` prints UUIDs.
    #expect(run.output.contains("  read a  uuid UUID(0)\n"))
    #expect(run.output.contains("  read b  uuid UUID(11111111…)\n"))
  }

  @Test("a trace that stops early is reported where the other goes on")
  func shorter() async throws {
    let a = try Self.record(CounterFeature(), .init(), Self.session)
    let b = try Self.record(CounterFeature(), .init(), Array(Self.session.prefix(5)))
    let difference = try #require(try TraceComparison(a, b).firstDifference)
    #expect(difference.step == 5)
    #expect(difference.kind == .onlyInA)
  }

  @Test("tca-replay compare prints the first difference and exits 1; identical traces exit 0")
  func tool() async throws {
    var other = Self.session
    other[4] = .decrementButtonTapped
    let a = try Self.record(CounterFeature(), .init(), Self.session)
    let b = try Self.record(CounterFeature(), .init(), other)
    let run = try await Run.tool("compare", a, b)
    #expect(run.status == 1)
    #expect(
      run.output == """
        \(a) and \(b) first differ at step 4, in the action (4 steps agree before it)
          a  .incrementButtonTapped  (send)
          b  .decrementButtonTapped  (send)
          state   1 difference (a −, b +)
            /count
              − 3
              + 1

        """
    )
    let same = try await Run.tool("compare", "Traces/counter.ndjson", "Traces/counter.ndjson")
    #expect(same.status == 0)
    #expect(
      same.output
        == "Traces/counter.ndjson and Traces/counter.ndjson agree: 243 steps, same actions, "
        + "origins and states\n"
    )
  }
}
