import Foundation
import TraceJSON

/// The values ``SwiftValue`` writes whole: numbers, strings, and the Foundation and standard
/// library types whose encoding is not their Swift shape.
enum SwiftValueScalars {
  /// `json`, a value of `type`, as one atom; `nil` when the type is not one of these or the
  /// JSON is not what it encodes as.
  static func scalar(_ json: JSONValue, type: String) -> SwiftValue? {
    let name = TypeName.shortName(type)
    if TypeName.integerNames.contains(name) || ["Double", "Float", "CGFloat"].contains(name) {
      switch json {
      case .integer, .unsignedInteger, .double: return .atom(json.jsonString, .number)
      case .string("NaN"): return .atom(".nan", .number)
      case .string("Infinity"): return .atom(".infinity", .number)
      case .string("-Infinity"): return .atom("-.infinity", .number)
      default: return nil
      }
    }
    switch name {
    case "String", "Substring", "Character":
      return json.stringValue.map { .atom(JSONValue.string($0).jsonString, .string) }
    case "Bool":
      return json.boolValue.map { .atom($0 ? "true" : "false", .keyword) }
    // A counting UUID is `UUID(7)`; a random one whole, which `SwiftValue` shortens later.
    case "UUID":
      return json.stringValue.map { .atom(PrintedForm.uuid($0), .symbol) }
    case "Date":
      return json.doubleValue.map { .atom(PrintedForm.date($0), .symbol) }
    case "Duration":
      return PrintedForm.duration(json).map { .atom($0, .symbol) }
    case "URL":
      return json.stringValue.map { .atom("URL(\($0))", .symbol) }
    case "IndexSet":
      return indexSet(json)
    case "Data":
      guard let text = json.stringValue else { return nil }
      let count = Data(base64Encoded: text)?.count ?? 0
      return .atom("Data(\(count) byte\(count == 1 ? "" : "s"))", .symbol)
    default:
      return nil
    }
  }

  /// `json`, a value of `type`, as one atom that compiles: an integer only from an integer,
  /// `Date(timeIntervalSinceReferenceDate: …)`, `UUID(uuidString: "…")!`, `URL(string: "…")!`,
  /// `Data(base64Encoded: "…")!`, a `Duration` in the largest unit that says it exactly.
  static func code(_ json: JSONValue, type: String) -> SwiftValue? {
    let name = TypeName.shortName(type)
    func literal(_ text: String) -> String { SwiftValue.stringLiteral(text) }
    switch name {
    case _ where TypeName.integerNames.contains(name):
      switch json {
      case .integer, .unsignedInteger: return .atom(json.jsonString, .number)
      default: return nil
      }
    case "Double", "Float", "CGFloat", "Bool":
      return scalar(json, type: type)
    case "String", "Substring", "Character":
      return json.stringValue.map { .atom(literal($0), .string) }
    case "StackElementID":
      // Tests name stack elements by the integer literal of their id.
      guard case .integer(let id) = json, id >= 0 else { return nil }
      return .atom(json.jsonString, .number)
    case "UUID":
      guard let text = json.stringValue else { return nil }
      let printed = PrintedForm.uuid(text)  // `UUID(7)` compiles, `UUID(<text>)` does not.
      return .atom(
        printed == "UUID(\(text))" ? "UUID(uuidString: \(literal(text)))!" : printed, .symbol)
    case "Date":
      return json.doubleValue.map {
        .atom("Date(timeIntervalSinceReferenceDate: \(SwiftValue.number($0)))", .symbol)
      }
    case "URL":
      return json.stringValue.map { .atom("URL(string: \(literal($0)))!", .symbol) }
    case "IndexSet":
      return codeIndexSet(json)
    case "Duration":
      return duration(json).map { .atom($0, .symbol) }
    case "Data":
      return json.stringValue.map { .atom("Data(base64Encoded: \(literal($0)))!", .symbol) }
    default:
      return nil
    }
  }

  /// An `IndexSet` as the array literal it takes, `[0, 1]`, or `IndexSet(integersIn: 0..<500)`
  /// for one long range.
  private static func codeIndexSet(_ json: JSONValue) -> SwiftValue? {
    guard let ranges = ranges(json), ranges.allSatisfy({ $0.length <= 16 }) || ranges.count == 1
    else { return nil }
    if ranges.count == 1, case let (location, length) = ranges[0], length > 8 {
      return .atom("IndexSet(integersIn: \(location)..<\(location + length))", .symbol)
    }
    let indexes = ranges.flatMap { range in (0..<range.length).map { range.location + $0 } }
    guard indexes.count <= 16 else { return nil }
    return .atom("[" + indexes.map(String.init).joined(separator: ", ") + "]", .symbol)
  }

  /// `.seconds(3)`, `.milliseconds(1500)`…: the largest unit that says it exactly.
  private static func duration(_ json: JSONValue) -> String? {
    guard let attoseconds = PrintedForm.attoseconds(json) else { return nil }
    for (unit, size) in PrintedForm.durationUnits where attoseconds % size == 0 {
      guard let exact = Int64(exactly: attoseconds / size) else { continue }
      return ".\(unit)(\(exact))"
    }
    let seconds = attoseconds / 1_000_000_000_000_000_000
    let rest = attoseconds % 1_000_000_000_000_000_000
    return "Duration(secondsComponent: \(seconds), attosecondsComponent: \(rest))"
  }

  /// How many indexes an `IndexSet` lists; past that, one range reads `integersIn:`.
  static let listedIndexes = 64

  /// An `IndexSet`, encoded as its ranges (`{"indexes":[{"location":0,"length":2}]}`), as
  /// Swift makes one: `IndexSet([0, 1])`, or `IndexSet(integersIn: 0..<500)` for a long range.
  static func indexSet(_ json: JSONValue) -> SwiftValue? {
    guard let bounds = ranges(json) else { return nil }
    let count = bounds.reduce(Int64(0)) { $0 + $1.length }
    if count > listedIndexes, bounds.count == 1 {
      let (location, length) = bounds[0]
      return .atom("IndexSet(integersIn: \(location)..<\(location + length))", .symbol)
    }
    guard count <= listedIndexes else { return nil }
    let indexes = bounds.flatMap { bound in (0..<bound.length).map { bound.location + $0 } }
    return .list(
      open: "IndexSet([", elements: indexes.map { .atom(String($0), .number) }, close: "])")
  }

  /// An `IndexSet`'s ranges, as Foundation encodes them.
  private static func ranges(_ json: JSONValue) -> [(location: Int64, length: Int64)]? {
    guard let ranges = json.objectValue?["indexes"]?.arrayValue else { return nil }
    var bounds: [(location: Int64, length: Int64)] = []
    for range in ranges {
      guard let location = range.objectValue?["location"]?.int64Value,
        let length = range.objectValue?["length"]?.int64Value, length >= 0
      else { return nil }
      bounds.append((location, length))
    }
    return bounds
  }

  /// A dictionary's entries in either encoding: an object (string or integer keys) or a flat
  /// array of keys and values.
  static func entries(_ json: JSONValue, keyType: String) -> [(key: JSONValue, value: JSONValue)]?
  {
    switch json {
    case .object(let object):
      guard TypeName.isInteger(keyType) else { return object.map { (.string($0.key), $0.value) } }
      // NB: by key, as the viewer must: a browser's object lists integer keys in their order.
      return object.enumerated().map { position, entry in
        (key: Int64(entry.key), position: position, entry: entry)
      }.sorted {
        ($0.key ?? .max, $0.position) < ($1.key ?? .max, $1.position)
      }.map { ($0.key.map(JSONValue.integer) ?? .string($0.entry.key), $0.entry.value) }
    case .array(let flat) where flat.count % 2 == 0:
      return stride(from: 0, to: flat.count, by: 2).map { (flat[$0], flat[$0 + 1]) }
    default:
      return nil
    }
  }

  /// `_0`, `_1`, …: the labels Codable gives unlabelled payload values.
  static func isPositional(_ label: String) -> Bool {
    label.hasPrefix("_") && label.count > 1 && label.dropFirst().allSatisfy(\.isNumber)
  }
}
