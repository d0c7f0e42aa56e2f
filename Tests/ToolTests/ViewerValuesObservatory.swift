import Architecture
import Foundation
import Recorder

/// A shape no example has, written as a TCA user writes it (no `Codable`), for the viewer's
/// values: numbers at the edges of JSON, strings with quotes, escapes and bidi controls, random
/// UUIDs that share their first 8 digits, dictionaries keyed by `Int` and `UUID`, nested
/// optionals and an indirect enum.
struct ObservatoryFeature: Reducer {
  struct State: Equatable {
    var catalog: [UUID: String] = [:]
    var exposure: Duration = .zero
    var flags: [Bool?] = []
    var lastSeen: Date?
    var note = ""
    var readings: [Int: Double] = [:]
    var sky: Sky = .clear
    var tags: Set<String> = []
    var total: Int = 0
  }

  indirect enum Sky: Equatable {
    case clear
    case cloudy(cover: Double)
    case layered(Sky, over: Sky)
  }

  enum Action {
    case catalogued(UUID, String)
    case exposed(Duration)
    case flagged([Bool?])
    case noted(String)
    case read(Int, Double)
    case seen(Date?)
    case skyChanged(Sky)
    case tagged(String)
    case totalled(Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .catalogued(id, name): state.catalog[id] = name
      case let .exposed(duration): state.exposure += duration
      case let .flagged(flags): state.flags = flags
      case let .noted(note): state.note = note
      case let .read(key, value): state.readings[key] = value
      case let .seen(date): state.lastSeen = date
      case let .skyChanged(sky): state.sky = sky
      case let .tagged(tag): state.tags.insert(tag)
      case let .totalled(total): state.total = total
      }
      return .none
    }
  }

  /// Two UUIDs whose first 8 digits agree, so that a short form must show more of them.
  static let twins = [
    UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!,
    UUID(uuidString: "3F2504E0-4F8A-11D3-9A0C-0305E82C3301")!,
  ]

  static var session: [Action] {
    [
      .catalogued(twins[0], "Vega"),
      .catalogued(twins[1], "Deneb \"the tail\""),
      .noted("a\u{202E}b\\c\n\t\u{7F}é🔭"),
      .read(-3, 0.1 + 0.2),
      .read(7, 1e-7),
      .read(9, 12.0),
      .read(11, -2.5e300),
      .totalled(Int(Int32.max) * 3),
      .totalled(-1),
      .exposed(.milliseconds(1500)),
      .exposed(.nanoseconds(7)),
      .seen(Date(timeIntervalSinceReferenceDate: 786_000_000.5)),
      .seen(nil),
      .flagged([true, nil, false]),
      .tagged("zenith"),
      .tagged(""),
      .skyChanged(.cloudy(cover: 0.75)),
      .skyChanged(.layered(.clear, over: .layered(.cloudy(cover: 1), over: .clear))),
    ]
  }

  /// Records the session to a new file in the temporary directory and returns its path.
  @MainActor
  static func record() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("observatory-\(UUID().uuidString).ndjson").path
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 5))
    let store = Store(initialState: State()) { Self().recording(to: recorder) }
    for action in session { store.send(action) }
    try recorder.close()
    return path
  }
}
