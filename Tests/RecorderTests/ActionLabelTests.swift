import Testing

@testable import Recorder
@testable import TraceJSON

@Suite("Action labels")
struct ActionLabelTests {
  func label(_ json: String) throws -> String {
    ActionLabel.make(from: try JSONValue(parsing: json))
  }

  @Test("a binding names its field and value however deep it is")
  func binding() throws {
    let json = #"""
      {"destination":{"_0":{"presented":{"_0":{"addBook":{"_0":{"binding":{"_0":
      {"set":{"keyPath":"$isbn","value":"978-0"}}}}}}}}}}
      """#
    #expect(try label(json) == #".destination(.presented(.addBook(.binding(.set(\.$isbn, "978-0")))))"#)
  }

  @Test("a task result shows its success value, or its failure's error type")
  func taskResult() throws {
    #expect(try label(#"{"response":{"_0":{"success":42}}}"#) == ".response(.success(42))")
    let failure = #"{"response":{"_0":{"failure":{"type":"CatalogError","description":"x"}}}}"#
    #expect(try label(failure) == ".response(.failure(CatalogError))")
  }

  @Test("stack element actions keep their id and action")
  func stackElement() throws {
    let json = #"{"path":{"_0":{"element":{"id":0,"action":{"notes":{"_0":{"doneButtonTapped":{}}}}}}}}"#
    #expect(try label(json) == ".path(.element(id: 0, action: .notes(.doneButtonTapped)))")
  }

  @Test("a case without payload is whole at any depth, never cut to (…)")
  func payloadlessDeep() throws {
    let json = #"""
      {"path":{"_0":{"element":{"id":0,"action":{"detail":{"_0":{"editor":{"_0":
      {"submitButtonTapped":{}}}}}}}}}}
      """#
    #expect(
      try label(json) == ".path(.element(id: 0, action: .detail(.editor(.submitButtonTapped))))")
  }

  @Test("Foundation's IndexSet encoding reads as IndexSet([…])")
  func indexSet() throws {
    let json = #"""
      {"move":{"fromOffsets":{"indexes":[{"location":0,"length":2},{"location":5,"length":1}]},
      "toOffset":2}}
      """#
    #expect(try label(json) == ".move(fromOffsets: IndexSet([0, 1, 5]), toOffset: 2)")
  }

  @Test("given the types, a raw-valued enum in a binding reads by its case; an empty struct by name")
  func typed() throws {
    var schema = TypeSchema()
    schema.merge(
      try JSONValue(
        parsing: #"""
          {"M.Action":{"enum":{"binding":{"_0":"Architecture.BindingAction<M.State>"},
          "saved":{"_0":"M.Settings"}}},
          "M.State":{"struct":{"filter":"Architecture.BindingState<M.Filter>"}},
          "M.Filter":{"rawEnum":{"\"All\"":"all","\"Completed\"":"completed"}}}
          """#))
    func typedLabel(_ json: String) throws -> String {
      ActionLabel.make(from: try JSONValue(parsing: json), type: "M.Action", schema: schema)
    }
    #expect(
      try typedLabel(#"{"binding":{"_0":{"set":{"keyPath":"$filter","value":"Completed"}}}}"#)
        == #".binding(.set(\.$filter, .completed))"#)
    #expect(try typedLabel(#"{"saved":{"_0":{}}}"#) == ".saved(Settings())")
    // Without types, the raw value.
    #expect(
      try label(#"{"binding":{"_0":{"set":{"keyPath":"$filter","value":"Completed"}}}}"#)
        == #".binding(.set(\.$filter, "Completed"))"#)
  }

  @Test("a small struct payload is shown in full, so the label keeps the clue")
  func smallStruct() throws {
    #expect(
      try label(#"{"move":{"fromOffsets":{"indexes":[1]},"toOffset":2}}"#)
        == ".move(fromOffsets: {indexes: [1]}, toOffset: 2)")
    #expect(
      try label(#"{"addLine":{"_0":{"sku":"A-7","quantity":3}}}"#)
        == #".addLine({sku: "A-7", quantity: 3})"#)
  }

  @Test("a struct or list wider than the label allows is still cut short")
  func wideStruct() throws {
    let wide = #"{"save":{"_0":{"name":"Ada Lovelace","email":"ada@example.com","age":36}}}"#
    #expect(try label(wide) == ".save({…})")
    let long = #"{"select":{"ids":[101,102,103,104,105,106,107,108,109]}}"#
    #expect(try label(long) == ".select(ids: [9 items])")
  }
}
