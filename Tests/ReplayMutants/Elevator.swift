import Architecture
import Foundation
import Recorder

/// An elevator: calls by floor, a ride time as a `Duration`, a count of stops by floor (a
/// dictionary keyed by `Int`), doors whose closing is an effect's action, and a maintenance
/// mode. A domain and state shape no example has, for `shrink`.
public struct ElevatorFeature: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var floor = 0
    public var calls: [Int] = []
    public var stopsByFloor: [Int: Int] = [:]
    public var rideTime: Duration = .zero
    public var doorsOpen = false
    public var maintenance = false
    public var stoppedInMaintenance = false
    public var tripID: UUID?
    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    case called(floor: Int)
    case arrived
    case doorsOpened
    case doorsClosed
    case tick
    case maintenanceKeyTurned
    case emergencyStop
    case resume
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .called(floor):
      if !state.calls.contains(floor) { state.calls.append(floor) }
      if state.tripID == nil { state.tripID = uuid() }
    case .arrived:
      guard !state.calls.isEmpty else { return .none }
      state.floor = state.calls.removeFirst()
      state.stopsByFloor[state.floor, default: 0] += 1
      state.doorsOpen = true
      if state.calls.isEmpty { state.tripID = nil }
      // The doors close by themselves.
      return .send(.doorsClosed)
    case .doorsOpened:
      state.doorsOpen = true
    case .doorsClosed:
      state.doorsOpen = false
    case .tick:
      state.rideTime += .milliseconds(250)
    case .maintenanceKeyTurned:
      state.maintenance.toggle()
    case .emergencyStop:
      if state.maintenance { state.stoppedInMaintenance = true }
    case .resume:
      state.stoppedInMaintenance = false
    }
    return .none
  }

  /// A long session: calls, arrivals, ticks and doors, in an order a seeded generator picks,
  /// with the maintenance key turned once, an emergency stop much later, and a resume near the
  /// end, and nothing else touching maintenance.
  public static func session(steps: Int) -> [Action] {
    var random = SplitMix(seed: 0xE1E7A7)
    var actions: [Action] = []
    let key = steps / 4
    let stop = steps * 3 / 5
    while actions.count < steps - 1 {
      if actions.count == key { actions.append(.maintenanceKeyTurned) }
      if actions.count == stop { actions.append(.emergencyStop) }
      switch random.next() % 5 {
      case 0: actions.append(.called(floor: Int(random.next() % 12)))
      case 1: actions.append(.arrived)
      case 2: actions.append(.doorsOpened)
      default: actions.append(.tick)
      }
    }
    actions.append(.resume)
    return actions
  }
}

/// ``ElevatorFeature`` after a refactor that assumes a resume after an emergency stop always
/// has a call to go back to: it traps on `.resume` when stopped in maintenance.
public struct ElevatorResumeTrap: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout ElevatorFeature.State, action: ElevatorFeature.Action
  ) -> Effect<ElevatorFeature.Action> {
    if action == .resume, state.stoppedInMaintenance {
      let next = state.calls.first(where: { $0 < 0 })!
      state.floor = next
    }
    return ElevatorFeature().reduce(into: &state, action: action)
  }
}

extension ElevatorFeature {
  /// Records ``session(steps:)`` through `reducer` into `path` in a store, which runs the
  /// doors' effect: through ``ElevatorResumeTrap`` the process dies at the resume, and the
  /// trace ends in a crash record.
  @MainActor
  public static func recordSession<Base: Reducer & Sendable>(
    through reducer: Base, steps: Int, to path: String
  ) throws where Base.State == State, Base.Action == Action {
    let recorder = try TraceRecorder(path: path)
    let store = Store(initialState: State()) {
      reducer.recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    for action in session(steps: steps) { store.send(action) }
    try recorder.close()
  }
}

/// SplitMix64: a small seeded generator whose whole state is the seed it started from, so
/// that sessions, and the replay tests' mutations, are the same on every run.
public struct SplitMix: Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
