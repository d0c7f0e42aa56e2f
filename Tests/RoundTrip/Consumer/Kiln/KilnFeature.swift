import Architecture

/// A pottery kiln an app outside this package drives: heat, a door that locks itself, an
/// overheat alarm, and a service mode in which the damper can be forced open. Its cooldown has
/// a planted crash for `tca-replay shrink`: after service mode (whose effect disables the
/// interlock) and a forced damper, in that order, starting a cooldown traps.
public struct KilnFeature: Reducer, Sendable {
  public enum Program: String, Codable, Equatable, Sendable {
    case bisque
    case glaze
    case raku
  }

  /// How the kiln cools: on its own, or with the damper forced open.
  public enum Cooling: String, Codable, Equatable, Hashable, Sendable {
    case natural
    case forcedDraft
  }

  public struct State: Codable, Equatable, Sendable {
    public var temperature = 20
    public var program = Program.bisque
    public var doorOpen = false
    public var doorLocked = false
    public var alarms = 0
    public var interlockEnabled = true
    public var cooling = Cooling.natural
    public var cooldowns = 0
    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    case heatRaised(by: Int)
    case heatLowered(by: Int)
    case overheatAlarmSounded
    case doorOpened
    case doorClosed
    case doorLocked
    case programSelected(Program)
    case serviceModeEntered
    case interlockDisabled
    case damperForcedOpen
    case cooldownStarted
  }

  /// The cooldown curve of each way of cooling, in degrees a minute. The forced draft's was
  /// never added: the planted bug.
  static let curves: [Cooling: Int] = [.natural: 3]

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .heatRaised(degrees):
      state.temperature = min(1_320, state.temperature + degrees)
      // The controller sounds the alarm by itself past 1,250 degrees.
      return state.temperature > 1_250 ? .send(.overheatAlarmSounded) : .none
    case let .heatLowered(degrees):
      state.temperature = max(20, state.temperature - degrees)
    case .overheatAlarmSounded:
      state.alarms += 1
      state.temperature -= 100
    case .doorOpened:
      // The latch lets go once the kiln is below 200 degrees.
      guard !state.doorLocked || state.temperature < 200 else { return .none }
      state.doorOpen = true
      state.doorLocked = false
    case .doorClosed:
      state.doorOpen = false
      // The latch locks the door once it is shut.
      return .send(.doorLocked)
    case .doorLocked:
      state.doorLocked = !state.doorOpen
    case let .programSelected(program):
      state.program = program
    case .serviceModeEntered:
      // Service mode takes the interlock off by itself.
      return .send(.interlockDisabled)
    case .interlockDisabled:
      state.interlockEnabled = false
    case .damperForcedOpen:
      guard !state.interlockEnabled else { return .none }
      state.cooling = .forcedDraft
    case .cooldownStarted:
      let perMinute = Self.curves[state.cooling]!
      state.temperature = max(20, state.temperature - perMinute * 60)
      state.doorLocked = false
      state.cooldowns += 1
    }
    return .none
  }

  /// A long session of `steps` sent actions in an order a seeded generator picks: heat, doors
  /// and programs, with service mode entered once, the damper forced much later, and a
  /// cooldown last; nothing else touches the interlock, the damper or the cooldown.
  public static func session(steps: Int) -> [Action] {
    var random = SplitMix(seed: 0x0C1A_7C0A)
    var actions: [Action] = []
    let service = steps / 3
    let damper = steps * 2 / 3
    while actions.count < steps - 1 {
      if actions.count == service { actions.append(.serviceModeEntered) }
      if actions.count == damper { actions.append(.damperForcedOpen) }
      switch random.next() % 6 {
      case 0, 1: actions.append(.heatRaised(by: 20 + Int(random.next() % 200)))
      case 2: actions.append(.heatLowered(by: 10 + Int(random.next() % 150)))
      case 3: actions.append(.doorOpened)
      case 4: actions.append(.doorClosed)
      default: actions.append(.programSelected([.bisque, .glaze, .raku][Int(random.next() % 3)]))
      }
    }
    actions.append(.cooldownStarted)
    return actions
  }
}

/// A small seeded generator, so that the session is the same on every run.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
