import Foundation
import Testing

@testable import TraceJSON

/// Keys declared out of alphabetical order, so the order test can fail.
private struct Todo: Codable, Equatable {
  var id: UUID
  var title: String
  var isComplete: Bool
  var createdAt: Date
}

private enum Action: Codable, Equatable {
  case increment
  case setText(String)
  case move(from: Int, to: Int)
  case todo(Todo?)
  case nested([Action])
}

private struct Numbers: Codable, Equatable {
  var int8: Int8
  var int16: Int16
  var int32: Int32
  var int64: Int64
  var int: Int
  var uint8: UInt8
  var uint16: UInt16
  var uint32: UInt32
  var uint64: UInt64
  var uint: UInt
  var float: Float
  var double: Double

  static let minimums = Numbers(
    int8: .min, int16: .min, int32: .min, int64: .min, int: .min, uint8: .min, uint16: .min,
    uint32: .min, uint64: .min, uint: .min, float: -.greatestFiniteMagnitude,
    double: -.greatestFiniteMagnitude)
  static let maximums = Numbers(
    int8: .max, int16: .max, int32: .max, int64: .max, int: .max, uint8: .max, uint16: .max,
    uint32: .max, uint64: .max, uint: .max, float: .greatestFiniteMagnitude,
    double: .greatestFiniteMagnitude)
}

private struct Generic<Element: Codable & Equatable>: Codable, Equatable {
  var items: [Element]
  var grid: [[Element?]]
  var named: [String: Element]
  var maybe: Element?
}

private struct Optionals: Codable, Equatable {
  var present: String?
  var absent: String?
  var explicitNull: Int?

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(present, forKey: .present)
    try container.encodeIfPresent(absent, forKey: .absent)
    try container.encode(explicitNull, forKey: .explicitNull)
  }
}

/// Writes through every kind of nested container and super-encoder by hand.
private struct Handmade: Codable, Equatable {
  var name: String
  var pairs: [[Int]]
  var parent: String
  var extra: Double

  enum CodingKeys: String, CodingKey {
    case name, info, base
  }

  enum InfoKeys: String, CodingKey {
    case pairs, extra
  }

  init(name: String, pairs: [[Int]], parent: String, extra: Double) {
    self.name = name
    self.pairs = pairs
    self.parent = parent
    self.extra = extra
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    var info = container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
    var list = info.nestedUnkeyedContainer(forKey: .pairs)
    for pair in pairs {
      var inner = list.nestedUnkeyedContainer()
      for number in pair { try inner.encode(number) }
    }
    var extraList = list.nestedContainer(keyedBy: InfoKeys.self)
    try extraList.encode(extra, forKey: .extra)
    try info.encode(extra, forKey: .extra)
    var base = container.superEncoder(forKey: .base).singleValueContainer()
    try base.encode(parent)
    var plainSuper = container.superEncoder().unkeyedContainer()
    try plainSuper.encode(true)
    var elementSuper = list.superEncoder().singleValueContainer()
    try elementSuper.encode("element super")
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    let info = try container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
    var list = try info.nestedUnkeyedContainer(forKey: .pairs)
    var pairs: [[Int]] = []
    while list.count! - list.currentIndex > 2 {
      var inner = try list.nestedUnkeyedContainer()
      var pair: [Int] = []
      while !inner.isAtEnd { pair.append(try inner.decode(Int.self)) }
      pairs.append(pair)
    }
    let extraObject = try list.nestedContainer(keyedBy: InfoKeys.self)
    extra = try extraObject.decode(Double.self, forKey: .extra)
    #expect(try list.superDecoder().singleValueContainer().decode(String.self) == "element super")
    #expect(list.isAtEnd)
    self.pairs = pairs
    parent = try container.superDecoder(forKey: .base).singleValueContainer().decode(String.self)
    var plainSuper = try container.superDecoder().unkeyedContainer()
    #expect(try plainSuper.decode(Bool.self))
  }
}

@Suite("JSONValueEncoder and JSONValueDecoder")
struct JSONCoderTests {
  let encoder = JSONValueEncoder()
  let decoder = JSONValueDecoder()

  func roundTrip<T: Codable>(_ value: T) throws -> T {
    let encoded = try encoder.encode(value)
    let reparsed = try JSONValue(parsing: encoded.jsonBytes)
    #expect(reparsed.isIdentical(to: encoded))
    return try decoder.decode(T.self, from: reparsed)
  }

  fileprivate static let todo = Todo(
    id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
    title: "Buy \"milk\"",
    isComplete: false,
    createdAt: Date(timeIntervalSinceReferenceDate: 700_000_000.25))

  @Test("A struct encodes with keys in declaration order and the documented scalar forms")
  func structShape() throws {
    let encoded = try encoder.encode(Self.todo)
    #expect(encoded.objectValue?.keys == ["id", "title", "isComplete", "createdAt"])
    #expect(
      encoded.jsonString
        == #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","title":"Buy \"milk\"","#
        + #""isComplete":false,"createdAt":700000000.25}"#)
    #expect(try roundTrip(Self.todo) == Self.todo)
  }

  /// A calendar entry whose optional, nested collections hold one member: such a collection is
  /// encoded inside an optional's single-value container, where sorting once dropped it.
  struct Calendar: Codable, Equatable {
    var reminders: [String: [Int?]]??
    var tags: Set<String>?
    var byDay: [Int: String]??
  }

  @Test("One-member dictionaries and sets inside optionals encode as JSONEncoder encodes them")
  func oneMemberCollectionsInOptionals() throws {
    for calendar in [
      Calendar(reminders: .some(.some(["a": [8, nil]])), tags: ["x"], byDay: .some(.some([3: "c"]))),
      Calendar(reminders: .some(.some(["a": [1], "b": []])), tags: ["y", "x"], byDay: .some(nil)),
      Calendar(reminders: .some(nil), tags: nil, byDay: nil),
    ] {
      let ours = try encoder.encode(calendar)
      // `.some(nil)` comes back as `nil` from either: JSON has one null.
      let foundationTrip = try JSONDecoder().decode(
        Calendar.self, from: JSONEncoder().encode(calendar))
      let oursThroughFoundation = try JSONDecoder().decode(
        Calendar.self, from: Data(ours.jsonBytes))
      #expect(oursThroughFoundation == foundationTrip, "\(ours.jsonString)")
      #expect(try roundTrip(calendar) == foundationTrip)
    }
  }

  @Test("Encoding is deterministic: same value, same bytes, dictionaries and sets sorted")
  func determinism() throws {
    let todos = (0..<50).map { index in
      Todo(
        id: UUID(), title: "t\(index)", isComplete: index.isMultiple(of: 2),
        createdAt: Date(timeIntervalSinceReferenceDate: Double(index)))
    }
    #expect(try encoder.encode(todos).jsonBytes == encoder.encode(todos).jsonBytes)

    var dictionary: [String: Int] = [:]
    for key in ["delta", "alpha", "charlie", "bravo", "Zulu", "é"] { dictionary[key] = key.count }
    let encodedDictionary = try encoder.encode(dictionary)
    #expect(
      encodedDictionary.objectValue?.keys == ["Zulu", "alpha", "bravo", "charlie", "delta", "é"])
    let rebuilt = Dictionary(uniqueKeysWithValues: dictionary.map { ($0.key, $0.value) })
    #expect(try encoder.encode(rebuilt).jsonBytes == encodedDictionary.jsonBytes)

    let set: Set<String> = ["b", "c", "a", "aa"]
    #expect(try encoder.encode(set).jsonString == #"["a","aa","b","c"]"#)
    let intKeys: [Int: String] = [10: "ten", 2: "two", 1: "one"]
    #expect(try encoder.encode(intKeys).jsonString == #"{"1":"one","10":"ten","2":"two"}"#)
    #expect(try roundTrip(intKeys) == intKeys)
    let structKeys: [Point: String] = [Point(x: 2): "two", Point(x: 1): "one", Point(x: 3): "3"]
    #expect(
      try encoder.encode(structKeys).jsonString
        == #"[{"x":1},"one",{"x":2},"two",{"x":3},"3"]"#)
    #expect(try roundTrip(structKeys) == structKeys)
  }

  @Test("Double edge cases round-trip bit-for-bit through encoding, text and decoding")
  func doubleEdgeCases() throws {
    let values: [Double] = [
      0.1, 1e-300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, -0.0, 0.0,
      .leastNonzeroMagnitude, .leastNormalMagnitude, 1.0, -1.5, .pi, 1e16, 123_456_789.125,
      9_007_199_254_740_994, .ulpOfOne,
    ]
    for value in values {
      let decoded = try roundTrip(value)
      #expect(decoded.bitPattern == value.bitPattern, "\(value)")
      #expect(try roundTrip([value])[0].bitPattern == value.bitPattern)
    }
    #expect(
      try encoder.encode([Double.nan, .infinity, -.infinity]) == ["NaN", "Infinity", "-Infinity"])
    let nonFinite = try roundTrip([Double.nan, .infinity, -.infinity])
    #expect(nonFinite[0].isNaN)
    #expect(nonFinite[1] == .infinity)
    #expect(nonFinite[2] == -.infinity)
    #expect(try decoder.decode(Double.self, from: 3) == 3.0)
  }

  @Test("Every integer type and Float round-trip at their extremes")
  func numbers() throws {
    #expect(try roundTrip(Numbers.minimums) == Numbers.minimums)
    #expect(try roundTrip(Numbers.maximums) == Numbers.maximums)
    let encoded = try encoder.encode(Numbers.maximums)
    #expect(encoded["uint64"]?.jsonString == "18446744073709551615")
    #expect(encoded["int64"]?.jsonString == "9223372036854775807")
    #expect(try encoder.encode(Float(0.1)).jsonString == "0.1")
    let floats: [Float] = [
      0.1, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -0.0, 16_777_218,
      .leastNormalMagnitude,
    ]
    for float in floats {
      #expect(try roundTrip(float).bitPattern == float.bitPattern, "\(float)")
    }
    #expect(try roundTrip(Float.nan).isNaN)
    #expect(try decoder.decode(Int.self, from: 3.0) == 3)
  }

  @Test("Numbers that do not fit are DecodingErrors naming the path")
  func numberOverflow() throws {
    let value: JSONValue = ["int8": 300]
    let error = #expect(throws: DecodingError.self) {
      try decoder.decode([String: Int8].self, from: value)
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    #expect(context.debugDescription == "Number 300 does not fit in Int8 at int8.")
    #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: 2.5) }
    #expect(throws: DecodingError.self) { try decoder.decode(UInt.self, from: -1) }
    #expect(throws: DecodingError.self) { try decoder.decode(Float.self, from: 1e300) }
    #expect(throws: DecodingError.self) {
      try decoder.decode(Int64.self, from: .unsignedInteger(.max))
    }
  }

  @Test("Date encodes as timeIntervalSinceReferenceDate and round-trips exactly")
  func dates() throws {
    let date = Date(timeIntervalSinceReferenceDate: 12_345.678_9)
    #expect(try encoder.encode(date) == .double(12_345.678_9))
    for _ in 0..<100 {
      let now = Date(timeIntervalSinceReferenceDate: .random(in: -1e9...1e9))
      #expect(try roundTrip(now) == now)
    }
    #expect(try roundTrip(Date.distantFuture) == .distantFuture)
  }

  @Test("UUID encodes as Foundation's uppercase string and parses either case")
  func uuids() throws {
    for _ in 0..<200 {
      let uuid = UUID()
      #expect(try encoder.encode(uuid) == .string(uuid.uuidString))
      #expect(try roundTrip(uuid) == uuid)
      #expect(try decoder.decode(UUID.self, from: .string(uuid.uuidString.lowercased())) == uuid)
    }
    for bad in ["", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
      "E621E1F8-C36C-495A-93FC_0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0"]
    {
      let error = #expect(throws: DecodingError.self) {
        try decoder.decode([UUID].self, from: [.string(bad)])
      }
      guard case .dataCorrupted(let context) = error else { continue }
      #expect(context.debugDescription.hasSuffix("at [0]."))
    }
  }

  @Test("URL encodes as its absolute string and Data as base64")
  func urlAndData() throws {
    let base = URL(string: "https://example.com/a/")!
    let relative = URL(string: "b?c=1", relativeTo: base)!
    #expect(try encoder.encode(relative) == "https://example.com/a/b?c=1")
    #expect(try roundTrip(relative).absoluteString == relative.absoluteString)
    let data = Data([0, 1, 2, 250, 255])
    #expect(try encoder.encode(data) == "AAEC+v8=")
    #expect(try roundTrip(data) == data)
    #expect(try roundTrip(Data()) == Data())
    #expect(throws: DecodingError.self) { try decoder.decode(Data.self, from: "not base64!") }
  }

  @Test("Optionals: nil is omitted by encodeIfPresent and written as null by encodeNil")
  func optionals() throws {
    let value = Optionals(present: "here", absent: nil, explicitNull: nil)
    let encoded = try encoder.encode(value)
    #expect(encoded.jsonString == #"{"present":"here","explicitNull":null}"#)
    #expect(try roundTrip(value) == value)
    let array: [Int?] = [1, nil, 3]
    #expect(try encoder.encode(array).jsonString == "[1,null,3]")
    #expect(try roundTrip(array) == array)
    let nestedOptional: [String?]? = nil
    #expect(try encoder.encode(nestedOptional) == nil)
    #expect(try decoder.decode(Optionals.self, from: ["explicitNull": nil]) == Optionals())
  }

  @Test("Enums with associated values use Swift's synthesized shape and round-trip")
  func enums() throws {
    let cases: [(Action, String)] = [
      (.increment, #"{"increment":{}}"#),
      (.setText("hi"), #"{"setText":{"_0":"hi"}}"#),
      (.move(from: 1, to: 2), #"{"move":{"from":1,"to":2}}"#),
      (.todo(nil), #"{"todo":{}}"#),
      (
        .nested([.increment, .setText("x")]),
        #"{"nested":{"_0":[{"increment":{}},{"setText":{"_0":"x"}}]}}"#
      ),
    ]
    for (action, text) in cases {
      #expect(try encoder.encode(action).jsonString == text)
      #expect(try decoder.decode(Action.self, from: json(text)) == action)
    }
    let withTodo = Action.todo(Self.todo)
    #expect(try roundTrip(withTodo) == withTodo)
  }

  @Test("Generic containers nest: arrays of optionals, dictionaries, optionals of structs")
  func generics() throws {
    let value = Generic<Todo>(
      items: [Self.todo, Self.todo],
      grid: [[Self.todo, nil], [], [nil]],
      named: ["b": Self.todo, "a": Self.todo],
      maybe: nil)
    #expect(try roundTrip(value) == value)
    let numbers = Generic<Generic<Int>>(
      items: [Generic(items: [1], grid: [[nil, 2]], named: [:], maybe: 3)],
      grid: [],
      named: ["x": Generic(items: [], grid: [], named: ["y": 4], maybe: nil)],
      maybe: Generic(items: [5], grid: [], named: [:], maybe: nil))
    #expect(try roundTrip(numbers) == numbers)
    #expect(
      try encoder.encode(numbers.items).jsonString
        == #"[{"items":[1],"grid":[[null,2]],"named":{},"maybe":3}]"#)
  }

  @Test("Nested keyed and unkeyed containers and super-encoders land in order")
  func handmadeContainers() throws {
    let value = Handmade(name: "n", pairs: [[1, 2], [3]], parent: "p", extra: 0.5)
    let encoded = try encoder.encode(value)
    let expected = #"""
      {"name":"n","info":{"pairs":[[1,2],[3],{"extra":0.5},"element super"],"extra":0.5},\#
      "base":"p","super":[true]}
      """#
    #expect(encoded.jsonString == expected)
    #expect(try decoder.decode(Handmade.self, from: encoded) == value)
  }

  @Test("Type mismatches name the coding path in the error and its message")
  func typeMismatchPath() throws {
    struct List: Codable { var todos: [Todo] }
    var todos = try encoder.encode(List(todos: Array(repeating: Self.todo, count: 5)))
    let retitle = JSONPatch([.replace(path: JSONPointer("/todos/3/title")!, value: 42)])
    todos = try retitle.apply(to: todos)
    let error = #expect(throws: DecodingError.self) { try decoder.decode(List.self, from: todos) }
    guard case .typeMismatch(let type, let context) = error else {
      Issue.record("expected typeMismatch, got \(String(describing: error))")
      return
    }
    #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
    #expect(context.codingPath.map(\.stringValue) == ["todos", "Index 3", "title"])
    #expect(context.codingPath.map(\.intValue) == [nil, 3, nil])
    #expect(context.debugDescription == "Expected a string but found number at todos[3].title.")
  }

  @Test("Missing keys and nulls are keyNotFound and valueNotFound with their paths")
  func missingValues() throws {
    struct Wrapper: Codable { var todo: Todo }
    let missing: JSONValue = ["todo": ["id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "title": "x"]]
    let keyError = #expect(throws: DecodingError.self) {
      try decoder.decode(Wrapper.self, from: missing)
    }
    guard case .keyNotFound(let key, let keyContext) = keyError else {
      Issue.record("expected keyNotFound, got \(String(describing: keyError))")
      return
    }
    #expect(key.stringValue == "isComplete")
    #expect(keyContext.codingPath.map(\.stringValue) == ["todo"])
    #expect(keyContext.debugDescription == "No value for key 'isComplete' at todo.")

    let null: JSONValue = [["id": nil]]
    let nullError = #expect(throws: DecodingError.self) {
      try decoder.decode([Todo].self, from: null)
    }
    guard case .valueNotFound(_, let nullContext) = nullError else {
      Issue.record("expected valueNotFound, got \(String(describing: nullError))")
      return
    }
    #expect(nullContext.debugDescription == "Expected a string but found null at [0].id.")

    let tupleError = #expect(throws: DecodingError.self) {
      _ = try decoder.decode(Pair.self, from: [1])
    }
    guard case .valueNotFound(_, let tupleContext) = tupleError else {
      Issue.record("expected valueNotFound, got \(String(describing: tupleError))")
      return
    }
    #expect(tupleContext.codingPath.map(\.intValue) == [1])
    #expect(tupleContext.debugDescription.hasSuffix("has only 1 elements at the top level."))
  }

  @Test("A value that encodes nothing is an error at the top level and {} when nested")
  func emptyEncodings() throws {
    #expect(throws: EncodingError.self) { try encoder.encode(Silent()) }
    #expect(try encoder.encode([Silent()]) == [[:]])
  }

  @Test("JSONValue embeds as itself in both coders and through Foundation's JSON coders")
  func embeddedJSONValue() throws {
    struct Envelope: Codable, Equatable {
      var kind: String
      var payload: JSONValue
    }
    let payload: JSONValue = ["z": [1, 2.5, "s", nil, true], "a": .unsignedInteger(.max)]
    let envelope = Envelope(kind: "state", payload: payload)
    let encoded = try encoder.encode(envelope)
    #expect(encoded["payload"]?.isIdentical(to: payload) == true)
    #expect(try roundTrip(envelope) == envelope)
    let foundation = try JSONDecoder().decode(Envelope.self, from: JSONEncoder().encode(envelope))
    #expect(foundation == envelope)
  }

  @Test("userInfo reaches encode(to:) and init(from:)")
  func userInfo() throws {
    let key = CodingUserInfoKey(rawValue: "prefix")!
    let encoder = JSONValueEncoder(userInfo: [key: ">"])
    #expect(try encoder.encode([UserInfoReader(text: "a")]) == [">a"])
    let decoder = JSONValueDecoder(userInfo: [key: "<"])
    #expect(try decoder.decode([UserInfoReader].self, from: ["b"]) == [UserInfoReader(text: "<b")])
  }
}

private struct Point: Codable, Hashable {
  var x: Int
}

private struct Pair: Decodable {
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    _ = try container.decode(Int.self)
    _ = try container.decode(Int.self)
  }
}

private struct Silent: Encodable {
  func encode(to encoder: any Encoder) throws {}
}

private struct UserInfoReader: Codable, Equatable {
  var text: String

  init(text: String) {
    self.text = text
  }

  init(from decoder: any Decoder) throws {
    let prefix = decoder.userInfo[CodingUserInfoKey(rawValue: "prefix")!] as? String ?? ""
    text = prefix + (try decoder.singleValueContainer().decode(String.self))
  }

  func encode(to encoder: any Encoder) throws {
    let prefix = encoder.userInfo[CodingUserInfoKey(rawValue: "prefix")!] as? String ?? ""
    var container = encoder.singleValueContainer()
    try container.encode(prefix + text)
  }
}
