import Testing

@testable import Recorder
@testable import TraceJSON

@Suite("Recorded values in Swift form")
struct SwiftValueTests {
  func text(_ json: String, _ type: String?, schema: TypeSchema = TypeSchema()) throws -> String {
    SwiftValue(try JSONValue(parsing: json), type: type, schema: schema).text
  }

  @Test("a Duration, encoded as the two words of its attoseconds, reads as Swift writes it")
  func durations() throws {
    // The issue's example: 6·2⁶⁴ + 9319535557742690304 attoseconds is exactly two minutes.
    #expect(try text("[6, 9319535557742690304]", "Swift.Duration") == ".seconds(120)")
    #expect(try text("[0, 6931953555774269030]", "Swift.Duration") == ".seconds(6.93)")
    #expect(try text("[0, 250000000000000000]", "Swift.Duration") == ".milliseconds(250)")
    #expect(try text("[0, 1234567000000000]", "Swift.Duration") == ".milliseconds(1.23)")
    #expect(try text("[0, 0]", "Swift.Duration") == ".zero")
  }

  @Test("a Date reads in ISO 8601, with fractional seconds only when it has them")
  func dates() throws {
    #expect(try text("0", "Foundation.Date") == "2001-01-01T00:00:00Z")
    #expect(try text("786000000.25", "Foundation.Date") == "2025-11-28T05:20:00.250Z")
  }

  @Test("counting UUIDs read UUID(n); others the fewest leading digits that tell them apart")
  func uuids() throws {
    #expect(try text(#""00000000-0000-0000-0000-00000000000A""#, "Foundation.UUID") == "UUID(10)")
    #expect(
      try text(#""3F2504E0-4F89-11D3-9A0C-0305E82C3301""#, "Foundation.UUID") == "UUID(3F2504E0…)")
    #expect(
      try text(
        #"["3F2504E0-4F89-11D3-9A0C-0305E82C3301","3F2504E0-4F8A-11D3-9A0C-0305E82C3301"]"#,
        "Swift.Array<Foundation.UUID>", schema: schema(#"{}"#))
        == "[UUID(3F2504E0-4F89…), UUID(3F2504E0-4F8A…)]")
  }

  @Test("dictionaries read [key: value] in either encoding; sets Set([…])")
  func collections() throws {
    let byProduct = "Swift.Dictionary<Shop.ProductID, Swift.Int>"
    #expect(try text("[13, 2, 7, 1]", byProduct) == "[13: 2, 7: 1]")
    let notes = "Swift.Dictionary<Swift.Int, Swift.String>"
    #expect(try text(#"{"13": "gift"}"#, notes) == #"[13: "gift"]"#)
    #expect(try text("[]", "Swift.Dictionary<Shop.ProductID, Swift.Int>") == "[:]")
    #expect(try text("[1, 2]", "Swift.Set<Swift.Int>") == "Set([1, 2])")
  }

  @Test("enums read .case(payload), nested, and structs Name(member: …) with nil optionals")
  func enumsAndStructs() throws {
    let shop = try schema(
      #"""
      {"Shop.Phase":{"enum":{"browsing":{},"checkingOut":{"_0":"Shop.Payment"}}},
       "Shop.Payment":{"enum":{"card":{"last4":"Swift.String"},"invoice":{}}},
       "Shop.Coupon":{"struct":{"code":"Swift.String","percent":"Swift.Int?"}}}
      """#)
    #expect(
      try text(#"{"checkingOut":{"_0":{"card":{"last4":"4242"}}}}"#, "Shop.Phase", schema: shop)
        == #".checkingOut(.card(last4: "4242"))"#)
    #expect(try text(#"{"browsing":{}}"#, "Shop.Phase", schema: shop) == ".browsing")
    #expect(
      try text(#"{"code":"SPRING"}"#, "Shop.Coupon", schema: shop)
        == #"Coupon(code: "SPRING", percent: nil)"#)
  }

  func schema(_ json: String) throws -> TypeSchema {
    var schema = TypeSchema()
    schema.merge(try JSONValue(parsing: json))
    return schema
  }
}
