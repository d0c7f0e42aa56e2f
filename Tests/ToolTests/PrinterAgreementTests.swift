import Architecture
import Foundation
@testable import Recorder
import Testing
import TraceJSON

/// A beekeeper's apiary, a shape no example has, written as a TCA user writes it (no `Codable`):
/// an identified array of hives, a dictionary of harvests keyed by names with quotes, a date, a
/// counting and a random UUID, an enum with a payload and an optional of an optional.
struct ApiaryFeature: Reducer {
  struct State: Equatable {
    var yard = Yard()
  }

  struct Yard: Equatable {
    var hives: IdentifiedArrayOf<Hive> = []
    var harvests: [String: Int] = [:]
    var inspected: Date?
    var keeper: UUID?
    var swarm: Swarm = .settled
    var mites: Int?? = nil
  }

  struct Hive: Equatable, Identifiable {
    let id: UUID
    var frames: Int
    var queenMarked: Bool
  }

  enum Swarm: Equatable {
    case settled
    case leaving(from: UUID, bees: Int)
  }

  enum Action {
    case hiveAdded(Hive)
    case harvested(String, kilograms: Int)
    case inspected(Date)
    case keeperAssigned(UUID)
    case swarmed(Swarm)
    case mitesCounted(Int??)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .hiveAdded(hive): state.yard.hives.append(hive)
      case let .harvested(honey, kilograms): state.yard.harvests[honey] = kilograms
      case let .inspected(date): state.yard.inspected = date
      case let .keeperAssigned(id): state.yard.keeper = id
      case let .swarmed(swarm): state.yard.swarm = swarm
      case let .mitesCounted(count): state.yard.mites = count
      }
      return .none
    }
  }

  static let keeper = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!

  static var session: [Action] {
    [
      .hiveAdded(Hive(id: UUID(1), frames: 10, queenMarked: true)),
      .hiveAdded(Hive(id: UUID(2), frames: 8, queenMarked: false)),
      .harvested("acacia", kilograms: 12),
      .harvested("heather \"late\"", kilograms: 7),
      .inspected(Date(timeIntervalSinceReferenceDate: 786_000_000.5)),
      .keeperAssigned(keeper),
      .swarmed(.leaving(from: UUID(2), bees: 9_000)),
      .mitesCounted(.some(.some(3))),
    ]
  }
}

/// Every printer of values that remains prints the same value alike: ``SwiftValue``'s line and
/// block layouts and its compilable mode (the generated tests' ``SwiftRenderer``), the viewer's
/// `values.js` and the live dump `TestStore` prints (`customDump`), on an apiary recorded in
/// this run: its yard and every action.
///
/// Each printer keeps the spellings its job needs, and only those are mapped before comparing:
/// generated Swift must compile (`Date(timeIntervalSinceReferenceDate:)`,
/// `UUID(uuidString:)!`), a dump reads as TCA's (`[0]:` indices, whole UUIDs, dates to the
/// millisecond, one field a line).
@MainActor
@Suite("The value printers agree")
struct PrinterAgreementTests {
  /// The apiary's yard after the session: recorded (its JSON and the trace's types) and live.
  static func yard() throws -> (json: JSONValue, type: String, schema: TypeSchema,
    live: ApiaryFeature.Yard, actions: [JSONValue], actionType: String)
  {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("apiary-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path)
    let store = Store(initialState: ApiaryFeature.State()) {
      ApiaryFeature().recording(to: recorder)
    }
    for action in ApiaryFeature.session { store.send(action) }
    try recorder.close()
    let trace = try TraceIndex(path: path)
    let state = try trace.state(afterStep: trace.stepIndices.last)
    let schema = trace.typeSchema()
    let yard = try #require(StatePath("/yard"))
    let type = try #require(schema.valueType(at: yard, in: trace.header.stateType))
    let json = try #require(state.objectValue?["yard"])
    let actions = try trace.stepIndices.map { try #require(trace.step(at: $0).action) }
    return (json, type, schema, store.withState(\.yard), actions, trace.header.actionType)
  }

  /// `text` over many lines as on one: line breaks and indentation joined as `line` joins items.
  static func oneLine(_ text: String) -> String {
    text.replacing(/,?\n *(?=[\]\)])/, with: "")
      .replacing(/([\(\[])\n */, with: { $0.output.1 })
      .replacing(/,\n */, with: ", ")
  }

  /// A generated expression in the model's spelling: a date as printed, a random UUID short.
  static func fromGenerated(_ text: String) -> String {
    oneLine(text)
      .replacing(/Date\(timeIntervalSinceReferenceDate: ([0-9.]+)\)/) {
        PrintedForm.date(Double($0.output.1)!)
      }
      .replacing(/UUID\(uuidString: "([0-9A-F-]{36})"\)!/) { "UUID(\($0.output.1.prefix(8))…)" }
  }

  /// A dump in the model's spelling: an identified array as the array it encodes as, without
  /// indices, counting UUIDs counted, a random one short, a date without whole milliseconds.
  static func fromDump(_ text: String) -> String {
    var text = oneLine(text)
    // `IdentifiedArray<ID, Element>(…)` is `[…]`: its closing parenthesis is the one at depth 0.
    while let open = text.firstMatch(of: /IdentifiedArray<[^(]*>\(/) {
      var depth = 0
      var close = open.range.upperBound
      for index in text[open.range.upperBound...].indices {
        if text[index] == "(" { depth += 1 }
        if text[index] == ")" { if depth == 0 { close = index; break } else { depth -= 1 } }
      }
      text.replaceSubrange(close...close, with: "]")
      text.replaceSubrange(open.range, with: "[")
    }
    return text
      .replacing(#/\[\d+\]: /#, with: "")
      .replacing(/UUID\(00000000-0000-0000-0000-0*([0-9A-F]+)\)/) {
        "UUID(\(UInt64($0.output.1, radix: 16)!))"
      }
      .replacing(/UUID\(([0-9A-F-]{36})\)/) { "UUID(\($0.output.1.prefix(8))…)" }
      .replacing(/Date\(([0-9T:.-]+)Z\)/) { match in
        let text = match.output.1
        return (text.hasSuffix(".000") ? String(text.dropLast(4)) : String(text)) + "Z"
      }
  }

  @Test("a struct, an enum with payload, a dictionary, a date, UUIDs, an identified array, a nested optional and every action print alike in every printer")
  func agree() throws {
    let yard = try Self.yard()
    let model = SwiftValue(yard.json, type: yard.type, schema: yard.schema)
    let line = model.line()

    // The block layout, narrow enough to break every collection and call.
    let block = model.block(width: 24)
    #expect(block.contains("\n"))
    #expect(Self.oneLine(block) == line)

    // The viewer's port.
    if ViewerAssetsTests.node != nil {
      let javaScript = try ViewerValuesTests.javaScript(
        [(yard.json, yard.type)], types: yard.schema.json, stateType: yard.type)
      #expect(javaScript == [line])
    }

    // Generated tests.
    var renderer = SwiftRenderer(schema: yard.schema)
    let generated = renderer.expression(yard.json, type: yard.type)
    #expect(!renderer.usesDecoding, "\(generated)")
    #expect(Self.fromGenerated(generated) == line)

    // The compilable mode on every action: payloads positional and labelled, a struct's
    // memberwise initializer, nested enums, a counted UUID, a date, an optional of an optional.
    for action in yard.actions {
      let shown = SwiftValue(action, type: yard.actionType, schema: yard.schema).line()
      var renderer = SwiftRenderer(schema: yard.schema)
      let generated = renderer.expression(action, type: yard.actionType)
      #expect(!renderer.usesDecoding, "\(generated)")
      #expect(Self.fromGenerated(generated) == shown)
    }

    // TestStore's dump of the live value.
    let dump = customDump(yard.live)
    #expect(Self.fromDump(dump) == line)
  }
}
