import Testing

@testable import Recorder
@testable import TraceJSON

/// `SwiftValueReader` is `SwiftValue`'s inverse: each value, printed by the types, reads back
/// as the JSON it was printed from, by the same types.
@Suite("Printed values read back")
struct SwiftValueReaderTests {
  static let types = #"""
    {"Shop.Phase":{"enum":{"browsing":{},"checkingOut":{"_0":"Shop.Payment"},
                           "stocked":{"_0":"Swift.String","count":"Swift.Int","_2":"Swift.Bool?"}}},
     "Shop.Payment":{"enum":{"card":{"last4":"Swift.String"},"invoice":{}}},
     "Shop.Coupon":{"struct":{"code":"Swift.String","percent":"Swift.Int?"}},
     "Shop.ProductID":{"struct":{"raw":"Swift.Int"}},
     "M.Mode":{"rawEnum":{"\"A\"":"active","\"I\"":"inactive"}},
     "M.State":{"struct":{"mode":"Architecture.BindingState<M.Mode>",
                          "when":"Architecture.BindingState<Foundation.Date>"}}}
    """#

  /// Values whose printed form holds all of them, with their types.
  static let cases: [(json: String, type: String)] = [
    ("[0, 6930000000000000000]", "Swift.Duration"),
    ("[-1, 18446744073709551516]", "Swift.Duration"),
    ("[0, 0]", "Swift.Duration"),
    ("817004000.5", "Foundation.Date"),
    ("-1e12", "Foundation.Date"),
    (#""00000000-0000-0000-0000-00000000002A""#, "Foundation.UUID"),
    (#"["3F2504E0-4F89-11D3-9A0C-0305E82C3301","3F2504E0-4F89-11D3-9A0C-0305E82C3302"]"#,
     "Swift.Array<Foundation.UUID>"),
    (#""https://example.com/a?b=1""#, "Foundation.URL"),
    (#"{"indexes":[{"location":0,"length":2},{"location":5,"length":1}]}"#, "Foundation.IndexSet"),
    (#"{"indexes":[{"location":3,"length":500}]}"#, "Foundation.IndexSet"),
    (#""NaN""#, "Swift.Double"),
    (#"{"13":2,"15":1}"#, "Swift.Dictionary<Swift.Int, Swift.Int>"),
    (#"[{"raw":13},2,{"raw":15},1]"#, "Swift.Dictionary<Shop.ProductID, Swift.Int>"),
    (#"{"a\"b":[1,2]}"#, "Swift.Dictionary<Swift.String, Swift.Array<Swift.Int>>"),
    ("[3,1]", "Swift.Set<Swift.Int>"),
    (#"{"checkingOut":{"_0":{"card":{"last4":"4242"}}}}"#, "Shop.Phase"),
    (#"{"stocked":{"_0":"flour","count":2}}"#, "Shop.Phase"),
    (#"{"stocked":{"_0":"flour","count":2,"_2":true}}"#, "Shop.Phase"),
    (#"{"code":"SPRING"}"#, "Shop.Coupon"),
    (#"{"code":"SPRING","percent":20}"#, "Swift.Optional<Shop.Coupon>"),
    (#""I""#, "Architecture.BindingState<M.Mode>"),
    (#"{"set":{"keyPath":"$mode","value":"A"}}"#, "Architecture.BindingAction<M.State>"),
    (#"{"set":{"keyPath":"$when","value":3.25}}"#, "Architecture.BindingAction<M.State>"),
    (#"[{"id":0,"element":{"browsing":{}}},{"id":4,"element":{"invoice":{}}}]"#,
     "Architecture.StackState<Shop.Phase>"),
    (#"{"success":{"invoice":{}}}"#, "Architecture.TaskResult<Shop.Payment>"),
  ]

  @Test("each value prints and reads back as the same JSON", arguments: cases.indices)
  func readsBack(index: Int) throws {
    var schema = TypeSchema()
    schema.merge(try JSONValue(parsing: Self.types))
    let (text, type) = Self.cases[index]
    let json = try JSONValue(parsing: text)
    let printed = SwiftValue(json, type: type, schema: schema).text
    let known = SwiftValueReader.strings(in: [json])
    let read = try SwiftValueReader(schema: schema, known: known).json(printed, type: type)
    #expect(read == json, "\(printed)")
  }

  @Test("without types a printed value reads as what it says", arguments: [
    (#".set(\.$draft, "X")"#, #"{"set":{"keyPath":"$draft","value":"X"}}"#),
    (".wait(.milliseconds(250))", #"{"wait":{"_0":[0,250000000000000000]}}"#),
    (".at(2001-01-01T00:00:01Z)", #"{"at":{"_0":1}}"#),
    (
      ".pick(id: UUID(10), [#1: .a])",
      #"{"pick":{"id":"00000000-0000-0000-0000-00000000000A","_1":[{"id":1,"element":{"a":{}}}]}}"#
    ),
    (#"{title: "Milk", quantity: 2}"#, #"{"title":"Milk","quantity":2}"#),
    (#"Todo.State(id: UUID(0), note: nil)"#, #"{"id":"00000000-0000-0000-0000-000000000000"}"#),
    ("[1: true, 2: false]", #"{"1":true,"2":false}"#),
  ])
  func untyped(text: String, json: String) throws {
    #expect(try SwiftValueReader().json(text, type: nil) == JSONValue(parsing: json))
  }

  @Test("a shortened UUID is the one known UUID with those ends, and two are an error")
  func shortenedUUIDs() throws {
    let known = ["3F2504E0-4F89-11D3-9A0C-0305E82C3301", "3F2504E0-4F89-11D3-9A0C-0305E82C3302"]
    let reader = SwiftValueReader(known: known)
    #expect(try reader.json("3F25…3302", type: "Foundation.UUID") == .string(known[1]))
    #expect(throws: SwiftValue.ReadError.self) {
      try reader.json("UUID(3F2504E0…)", type: "Foundation.UUID")
    }
    #expect(throws: SwiftValue.ReadError.self) {
      try reader.json("0000…0001", type: "Foundation.UUID")
    }
  }
}
