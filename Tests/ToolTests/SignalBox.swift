import Architecture
import Foundation
import Recorder

/// A railway signal box, written as a TCA user writes one, with no `Codable`: points thrown by
/// lever number, signal aspects by name, trains by headcode in an identified array, and an
/// optional route whose cases carry payloads.
struct SignalBox: Reducer {
  enum Aspect: Equatable {
    case danger
    case caution
    case clear
  }

  enum Points: Equatable {
    case normal
    case reverse
  }

  enum Route: Equatable {
    case main(platform: Int)
    case loop
    case siding(String)
  }

  struct Train: Equatable, Identifiable {
    let id: String
    var line: Int
    var speed: Double
  }

  struct State: Equatable {
    var levers: [Int: Points] = [:]
    var aspects: [String: Aspect] = [:]
    var trains: IdentifiedArrayOf<Train> = []
    var route: Route?
    var movements = 0
  }

  enum Action: Equatable {
    case leverPulled(Int)
    case aspectSet(String, Aspect)
    case trainAccepted(headcode: String, line: Int)
    case trainSped(headcode: String, by: Double)
    case routeSet(Route?)
    case trainCleared(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      // Every action moves the count: each step's patch tests its old value.
      state.movements += 1
      switch action {
      case let .leverPulled(lever):
        state.levers[lever] = state.levers[lever] == .reverse ? .normal : .reverse
      case let .aspectSet(signal, aspect):
        state.aspects[signal] = aspect
      case let .trainAccepted(headcode, line):
        state.trains.append(Train(id: headcode, line: line, speed: 0))
      case let .trainSped(headcode, by):
        state.trains[id: headcode]?.speed += by
      case let .routeSet(route):
        state.route = route
      case let .trainCleared(headcode):
        state.trains.remove(id: headcode)
      }
      return .none
    }
  }
}

extension SignalBox {
  /// Fourteen actions: steps 0…13.
  static let session: [Action] = [
    .trainAccepted(headcode: "1A23", line: 1),
    .leverPulled(12),
    .aspectSet("K4", .caution),
    .routeSet(.main(platform: 2)),
    .trainSped(headcode: "1A23", by: 40),
    .trainAccepted(headcode: "2C07", line: 2),
    .leverPulled(7),
    .aspectSet("K4", .clear),
    .routeSet(.siding("Up Yard \"B\"")),
    .trainSped(headcode: "2C07", by: 12.5),
    .leverPulled(12),
    .trainCleared("1A23"),
    .routeSet(nil),
    .aspectSet("K9", .danger),
  ]

  /// Records the session to `path`, rotating as `limit` says, with a keyframe every 2 steps.
  static func record(to path: String, limit: TraceRecorder.SizeLimit?) throws {
    let recorder = try TraceRecorder(
      path: path, options: .init(keyframeInterval: 2, limit: limit))
    let reducer = Reduce(SignalBox().recording(to: recorder))
    var state = State()
    for action in session {
      _ = reducer.reduce(into: &state, action: action)
    }
    try recorder.close()
  }
}
