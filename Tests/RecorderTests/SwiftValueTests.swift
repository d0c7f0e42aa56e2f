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
    // Past the year 9999, which ISO 8601 cannot spell: the initializer.
    #expect(try text("1e300", "Foundation.Date") == "Date(timeIntervalSinceReferenceDate: 1e+300)")
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

  @Test("an IndexSet reads IndexSet([…]), or integersIn: for one long range")
  func indexSets() throws {
    let two = #"{"indexes":[{"location":0,"length":2},{"location":5,"length":1}]}"#
    #expect(try text(two, "Foundation.IndexSet") == "IndexSet([0, 1, 5])")
    #expect(try text(#"{"indexes":[]}"#, "Foundation.IndexSet") == "IndexSet([])")
    let long = #"{"indexes":[{"location":3,"length":500}]}"#
    #expect(try text(long, "Foundation.IndexSet") == "IndexSet(integersIn: 3..<503)")
  }

  @Test("@BindingState and @PresentationState members read as the value they wrap")
  func wrappers() throws {
    let types = try schema(#"{"M.Mode":{"enum":{"active":{},"inactive":{}}}}"#)
    #expect(
      try text(#"{"active":{}}"#, "Architecture.BindingState<M.Mode>", schema: types) == ".active")
    #expect(
      try text(
        #"{"active":{}}"#, "Architecture.PresentationState<Swift.Optional<M.Mode>>", schema: types)
        == ".active")
  }

  @Test("a struct without stored properties reads Name(), not [:]")
  func emptyStruct() throws {
    #expect(try text("{}", "M.Feature.Settings") == "Feature.Settings()")
    #expect(try text("{}", "Swift.Dictionary<Swift.String, Swift.Int>") == "[:]")
    #expect(try text("{}", nil) == "[:]")
  }

  @Test("alerts, dialogs and buttons read as their initializers, with the button actions typed")
  func alerts() throws {
    let types = try schema(#"{"M.Alert":{"enum":{"confirm":{}}}}"#)
    let alert = #"""
      {"title":"Delete?","actions":[{"role":"destructive","action":{"send":{"confirm":{}}},
      "label":"Delete"},{"role":"cancel","label":"Cancel"}],"message":"Gone for good."}
      """#
    #expect(
      try text(alert, "Architecture.AlertState<M.Alert>", schema: types)
        == #"AlertState(title: "Delete?", actions: [ButtonState(role: .destructive, "#
        + #"action: .confirm, label: "Delete"), ButtonState(role: .cancel, label: "Cancel")], "#
        + #"message: "Gone for good.")"#)
    #expect(
      try text(#"{"title":"Saved","actions":[]}"#, "Architecture.AlertState<M.Empty>")
        == #"AlertState(title: "Saved")"#)
    #expect(
      try text(
        #"{"titleVisibility":"visible","title":"Sort","actions":[]}"#,
        "Architecture.ConfirmationDialogState<M.Alert>", schema: types)
        == #"ConfirmationDialogState(titleVisibility: .visible, title: "Sort")"#)
  }

  @Test("a binding action reads .set(\\.$field, value), the value by the member's wrapped type")
  func bindingActions() throws {
    let types = try schema(
      #"""
      {"M.State":{"struct":{"filter":"Architecture.BindingState<M.Filter>"}},
       "M.Filter":{"rawEnum":{"\"Completed\"":"completed"}}}
      """#)
    let set = #"{"set":{"keyPath":"$filter","value":"Completed"}}"#
    #expect(
      try text(set, "Architecture.BindingAction<M.State>", schema: types)
        == #".set(\.$filter, .completed)"#)
  }

  @Test("a stack reads [#id: element], and one entry alike; a task result .success or .failure")
  func stacksAndResults() throws {
    let types = try schema(#"{"M.Path.State":{"enum":{"detail":{}}}}"#)
    let stack = "Architecture.StackState<M.Path.State>"
    #expect(
      try text(#"[{"id":0,"element":{"detail":{}}},{"id":3,"element":{"detail":{}}}]"#, stack,
        schema: types) == "[#0: .detail, #3: .detail]")
    #expect(try text("[]", stack) == "[:]")
    #expect(
      try text(#"{"id":2,"element":{"detail":{}}}"#, stack + ".Entry", schema: types)
        == "[#2: .detail]")
    let result = "Architecture.TaskResult<Swift.Int>"
    #expect(try text(#"{"success":42}"#, result) == ".success(42)")
    #expect(
      try text(#"{"failure":{"type":"M.BankError","description":"x"}}"#, result)
        == ".failure(M.BankError)")
  }

  func schema(_ json: String) throws -> TypeSchema {
    var schema = TypeSchema()
    schema.merge(try JSONValue(parsing: json))
    return schema
  }
}
