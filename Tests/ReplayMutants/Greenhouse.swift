import Architecture
import Recorder

/// A greenhouse: zones with moisture and a harvest count, vents, and a watering mode with an
/// interval as a `Duration`. A domain no example has, for `shrink`'s divergences and
/// conditions.
public struct GreenhouseFeature: Reducer, Sendable {
  public struct Zone: Codable, Equatable, Sendable {
    public var moisture = 40
    public var fertilized = false
    public var harvested = 0
    public init() {}
  }

  public enum Mode: Codable, Equatable, Sendable {
    case manual
    case scheduled(every: Duration)
  }

  public struct State: Codable, Equatable, Sendable {
    public var zones: [Zone] = Array(repeating: Zone(), count: 4)
    public var ventsOpen = false
    public var mode = Mode.manual
    public var warnings: Set<String> = []
    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    case watered(zone: Int, liters: Int)
    case misted(zone: Int)
    case fertilized(zone: Int)
    case harvested(zone: Int)
    case ventOpened
    case ventClosed
    case modeChanged(Mode)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .watered(zone, liters):
      state.zones[zone].moisture = min(100, state.zones[zone].moisture + liters)
      if state.zones[zone].moisture == 100 { state.warnings.insert("zone \(zone) flooded") }
    case let .misted(zone):
      state.zones[zone].moisture = max(0, state.zones[zone].moisture - 3)
    case let .fertilized(zone):
      state.zones[zone].fertilized = true
    case let .harvested(zone):
      state.zones[zone].harvested += state.zones[zone].fertilized ? 3 : 1
      state.zones[zone].fertilized = false
    case .ventOpened:
      state.ventsOpen = true
    case .ventClosed:
      state.ventsOpen = false
    case let .modeChanged(mode):
      state.mode = mode
    }
    return .none
  }

  /// A long session in an order a seeded generator picks: watering and misting every zone,
  /// fertilizing and harvesting zones 0, 1 and 3, mode changes; zone 2 is fertilized once, the
  /// vents opened once, and zone 2 harvested at the end.
  public static func session(steps: Int) -> [Action] {
    var random = SplitMix(seed: 0x6EE4)
    var actions: [Action] = []
    while actions.count < steps - 1 {
      if actions.count == steps / 4 { actions.append(.fertilized(zone: 2)) }
      if actions.count == steps / 2 { actions.append(.ventOpened) }
      let zone = [0, 1, 3][Int(random.next() % 3)]
      switch random.next() % 6 {
      case 0: actions.append(.watered(zone: Int(random.next() % 4), liters: 5 + Int(random.next() % 10)))
      case 1: actions.append(.misted(zone: Int(random.next() % 4)))
      case 2: actions.append(.fertilized(zone: zone))
      case 3: actions.append(.harvested(zone: zone))
      case 4: actions.append(.modeChanged(.scheduled(every: .seconds(Int(random.next() % 90)))))
      default: actions.append(.modeChanged(.manual))
      }
    }
    actions.append(.harvested(zone: 2))
    return actions
  }

  /// Records ``session(steps:)`` through this reducer into `path`.
  public static func recordSession(steps: Int, to path: String) throws {
    let recorder = try TraceRecorder(path: path)
    let recording = GreenhouseFeature().recording(to: recorder)
    var state = State()
    for action in session(steps: steps) { _ = recording.reduce(into: &state, action: action) }
    try recorder.close()
  }
}

/// ``GreenhouseFeature`` after a change that counts a fertilized harvest twice, not three
/// times, when the vents are open.
public struct GreenhouseVentedHarvest: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout GreenhouseFeature.State, action: GreenhouseFeature.Action
  ) -> Effect<GreenhouseFeature.Action> {
    if case let .harvested(zone) = action, state.ventsOpen, state.zones[zone].fertilized {
      state.zones[zone].harvested += 2
      state.zones[zone].fertilized = false
      return .none
    }
    return GreenhouseFeature().reduce(into: &state, action: action)
  }
}
