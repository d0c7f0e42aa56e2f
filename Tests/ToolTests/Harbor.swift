import Architecture
import Foundation
import Recorder

/// A harbour's berth board, written as a TCA user writes one, with no `Codable`: random and
/// counted UUID ids in an identified array, bindings (a string and a `Duration`), dates, a
/// raw-valued enum, enums nested in enum payloads, an optional id and a dictionary.
struct Harbor: Reducer {
  enum Liquid: Equatable {
    case crude
    case lng(pressure: Double)
  }

  enum Cargo: Equatable {
    case containers(count: Int)
    case tanker(Liquid)
    case empty
  }

  enum Berth: String, Equatable {
    case north = "N"
    case south = "S"
  }

  struct Vessel: Equatable, Identifiable {
    let id: UUID
    var name: String
    var cargo: Cargo
    var eta: Date
    var dwell: Duration = .zero
    var berth: Berth?
  }

  struct State: Equatable {
    var vessels: IdentifiedArrayOf<Vessel> = []
    @BindingState var note = ""
    @BindingState var window: Duration = .seconds(90)
    var selected: UUID?
    var lastDocking: Date?
    var tally: [String: Int] = [:]
  }

  enum VesselAction: Equatable {
    case docked(at: Date, berth: Berth)
    case cargoChanged(Cargo)
    case dwellExtended(by: Duration)
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case announced(id: UUID, name: String, cargo: Cargo, eta: Date)
    case vessel(id: UUID, action: VesselAction)
    case selected(UUID?)
    case departed(UUID)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        break
      case let .announced(id, name, cargo, eta):
        state.vessels.append(Vessel(id: id, name: name, cargo: cargo, eta: eta))
        state.tally[name, default: 0] += 1
      case let .vessel(id, .docked(at, berth)):
        state.vessels[id: id]?.berth = berth
        state.lastDocking = at
      case let .vessel(id, .cargoChanged(cargo)):
        state.vessels[id: id]?.cargo = cargo
      case let .vessel(id, .dwellExtended(by)):
        state.vessels[id: id]?.dwell += by
      case let .selected(id):
        state.selected = id
      case let .departed(id):
        state.vessels.remove(id: id)
      }
      return .none
    }
  }
}

extension Harbor {
  static let aurora = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
  /// Shares all but its last digit with ``aurora``: the printers must tell them apart.
  static let borealis = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3302")!
  static let kestrel = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
  static let tern = UUID(uuidString: "9B1C77A2-0D6E-4C1A-8E55-1D2C3B4A5F60")!

  static func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

  /// The session: every action shape, each once or twice.
  static let session: [Action] = [
    .announced(id: aurora, name: "Aurora", cargo: .tanker(.lng(pressure: 2.5)), eta: date(817_000_000)),
    .announced(id: kestrel, name: "Kestrel", cargo: .containers(count: 40), eta: date(817_003_600.25)),
    .announced(id: borealis, name: "Borealis", cargo: .empty, eta: date(817_000_000)),
    // Longer than a label shows: the label cuts it, and edit restores it from the state.
    .binding(.set(\.$note, "fog at the mouth, visibility under a mile")),
    .binding(.set(\.$window, .milliseconds(250))),
    .vessel(id: kestrel, action: .docked(at: date(817_004_000.5), berth: .north)),
    .vessel(id: aurora, action: .dwellExtended(by: .seconds(1.5))),
    .vessel(id: borealis, action: .cargoChanged(.tanker(.crude))),
    .selected(aurora),
    .vessel(id: aurora, action: .docked(at: date(817_010_000), berth: .south)),
    .selected(nil),
    .departed(kestrel),
    .announced(id: tern, name: #"Tern "II""#, cargo: .containers(count: 3), eta: date(-3_600)),
    .vessel(id: tern, action: .dwellExtended(by: .milliseconds(40))),
    .binding(.set(\.$note, "")),
  ]

  /// Records the session to a new file in the temporary directory; returns its path.
  static func record() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("harbor-\(UUID().uuidString).ndjson").path
    let recorder = TraceRecorder(sink: try .file(atPath: path))
    let reducer = Reduce(Harbor().recording(to: recorder))
    var state = State()
    for action in session {
      _ = reducer.reduce(into: &state, action: action)
    }
    try recorder.close()
    return path
  }
}
