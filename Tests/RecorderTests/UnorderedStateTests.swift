import Architecture
import Foundation
import Testing

@testable import Recorder

/// A seed bank, written as a TCA user would (no Codable): its state holds a set of structs and
/// a dictionary keyed by structs, whose hash order changes as they grow.
struct SeedBank: Reducer {
  struct Seed: Hashable {
    var species: String
    var year: Int
  }
  struct State: Equatable {
    var seeds: Set<Seed> = []
    var packets: [Seed: Int] = [:]
  }
  enum Action {
    case deposited(String, year: Int)
    case withdrawn(String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .deposited(species, year):
      let seed = Seed(species: species, year: year)
      state.seeds.insert(seed)
      state.packets[seed, default: 0] += 1
    case let .withdrawn(species):
      state.seeds = state.seeds.filter { $0.species != species }
      state.packets = state.packets.filter { $0.key.species != species }
    }
    return .none
  }
}

@Suite("Unordered collections in state")
struct UnorderedStateTests {
  @Test("a set of structs and a dictionary keyed by structs record keyframes the patches rebuild, and replay clean")
  func keyframesOfUnorderedState() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("seed-bank-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Keyframes every 25 steps: each is a whole encoding the reader checks the patches against.
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 25))
    let recording = SeedBank().recording(to: recorder)
    var state = SeedBank.State()
    // Past several keyframe intervals, growing and shrinking both collections.
    for step in 0..<120 {
      let action: SeedBank.Action =
        step % 7 == 3 ? .withdrawn("s\(step / 2)") : .deposited("s\(step)", year: step % 5)
      _ = recording.reduce(into: &state, action: action)
    }
    try recorder.close()

    // Reading checks every keyframe against the state the patches rebuild.
    let reader = try CheckedTraceReader(path: path)
    var keyframes = 0
    while let record = try reader.next() {
      if case .keyframe = record { keyframes += 1 }
    }
    #expect(keyframes >= 2)
    let report = try Replayer(reducer: ReflectingReducer(base: SeedBank())).replay(tracePath: path)
    #expect(report.replayed == 120)
    #expect(report.matches, "\(report.divergences)")
  }
}
