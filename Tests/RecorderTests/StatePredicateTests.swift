import Recorder
import Testing
import TraceJSON

@Suite("state predicates")
struct StatePredicateTests {
  let state: JSONValue = [
    "cart": [["id": 7, "quantity": 4]], "coupon": nil, "name": "Ada", "alert": false,
  ]

  @Test("comparisons of numbers, strings and nil", arguments: [
    ("/cart/0/quantity > 3", true), ("/cart/0/quantity >= 4", true), ("/cart/0/quantity < 4", false),
    ("/cart/0/quantity <= 3", false), ("/cart/0/quantity == 4", true), ("/cart/0/quantity != 4", false),
    ("/cart[id=7]/quantity == 4", true), ("/name == \"Ada\"", true), ("/name > \"Ab\"", true),
    ("/coupon == nil", true), ("/coupon != nil", false), ("/missing == nil", true),
    ("/name > 3", false), ("/alert", false), ("/name", true), ("/coupon", false),
  ])
  func comparisons(text: String, holds: Bool) throws {
    #expect(try StatePredicate(text).holds(in: state) == holds, "\(text)")
  }

  @Test("malformed predicates say what is wrong", arguments: [
    ("cart > 3", "is not a state path"), ("/cart >", "nothing to compare with after '>'"),
    ("/name == Ada", "is not a JSON value or nil"),
  ])
  func malformed(text: String, message: String) {
    #expect {
      try StatePredicate(text)
    } throws: { error in
      (error as? StatePredicate.ParseError)?.message.contains(message) == true
    }
  }

  @Test("typed by the recording's schema, a printed raw-valued case compares as its raw value")
  func typedRawEnum() throws {
    var schema = TypeSchema()
    schema.merge(
      try JSONValue(parsing: #"""
        {"M.State":{"struct":{"mode":"M.Mode","since":"Foundation.Date"}},
         "M.Mode":{"rawEnum":{"\"A\"":"active","\"I\"":"inactive"}}}
        """#))
    let state: JSONValue = ["mode": "A", "since": 10]
    let untyped = try StatePredicate("/mode == .active")
    #expect(!untyped.holds(in: state))
    #expect(untyped.typed(stateType: "M.State", schema: schema).holds(in: state))
    #expect(
      try StatePredicate("/mode != .inactive").typed(stateType: "M.State", schema: schema)
        .holds(in: state))
    // JSON stays JSON, whatever the type.
    #expect(
      try StatePredicate(#"/mode == "A""#).typed(stateType: "M.State", schema: schema)
        .holds(in: state))
  }
}
