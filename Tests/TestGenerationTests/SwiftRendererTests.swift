import Testing

@testable import Recorder
@testable import TraceJSON

@Suite("Swift expressions from recorded JSON")
struct SwiftRendererTests {
  static let schema: TypeSchema = {
    var schema = TypeSchema()
    schema.merge(
      try! JSONValue(
        parsing: #"""
          {
            "App.Action": {"enum": {
              "picked": {"_0": "App.Filter"},
              "moved": {"fromOffsets": "Foundation.IndexSet", "toOffset": "Swift.Int"},
              "row": {"id": "FoundationEssentials.UUID", "note": "Swift.String?"},
              "default": {}
            }},
            "App.Filter": {"rawEnum": {"\"done\"": "completed"}}
          }
          """#
      )
    )
    return schema
  }()

  func render(_ json: String, _ type: String?) throws -> String {
    var renderer = SwiftRenderer(schema: Self.schema)
    return renderer.expression(try JSONValue(parsing: json), type: type)
  }

  @Test("enum cases become implicit members; positional payloads lose their _0 label")
  func enumCases() throws {
    #expect(try render(#"{"picked":{"_0":"done"}}"#, "App.Action") == ".picked(.completed)")
    #expect(try render(#"{"default":{}}"#, "App.Action") == ".`default`")
  }

  @Test("a dictionary with integer keys is written in key order, whatever order it was recorded in")
  func integerKeys() throws {
    let type = "Swift.Dictionary<Swift.Int, Swift.String>"
    #expect(try render(#"{"30":"c","4":"a","-2":"b"}"#, type) == #"[-2: "b", 4: "a", 30: "c"]"#)
  }

  @Test("a raw value maps to the case that has it, even when the names differ")
  func rawValues() throws {
    #expect(try render(#""done""#, "App.Filter") == ".completed")
  }

  @Test("an absent optional payload is nil; UUIDs read as UUID(7) where they count")
  func payloads() throws {
    #expect(
      try render(#"{"row":{"id":"00000000-0000-0000-0000-00000000000A"}}"#, "App.Action")
        == ".row(id: UUID(10), note: nil)"
    )
    #expect(
      try render(#""3F2504E0-4F89-11D3-9A0C-0305E82C3301""#, "Foundation.UUID")
        == #"UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!"#
    )
  }

  @Test("IndexSet, Date and doubles have literal forms")
  func foundationValues() throws {
    #expect(
      try render(
        #"{"moved":{"fromOffsets":{"indexes":[{"location":2,"length":2}]},"toOffset":0}}"#,
        "App.Action")
        == ".moved(fromOffsets: [2, 3], toOffset: 0)"
    )
    #expect(
      try render("821692800.5", "Foundation.Date")
        == "Date(timeIntervalSinceReferenceDate: 821692800.5)")
    #expect(try render(#""-Infinity""#, "Swift.Double") == "-.infinity")
  }

  @Test("strings are escaped so that nothing recorded can end the literal")
  func strings() throws {
    let json = ##""say \"hi\"\n\\""##
    #expect(try render(json, "Swift.String") == json)
  }

  @Test("an unknown type is decoded, in a raw string that the JSON cannot end")
  func fallback() throws {
    #expect(try render(#"{"a":1}"#, nil) == ##"try decoded(#"{"a":1}"#)"##)
    #expect(try render(##"{"a":"\"#"}"##, "App.Unknown") == ###"try decoded(##"{"a":"\"#"}"##)"###)
  }

  @Test(
    "type names are what String(reflecting:) writes, nothing else",
    arguments: [
      ("Counter.CounterFeature", true), ("CounterFeature", true),
      ("Architecture.IdentifiedArray<Foundation.UUID, Todos.Todo>", true),
      ("Architecture.StackState<App.Path.State>.Entry", true),
      ("Swift.Optional<Swift.Dictionary<Swift.String, Swift.Array<Swift.Int>>>", true),
      ("Café.Größe", true), ("", false), ("App.", false), (".App", false), ("App..X", false),
      ("App X", false), ("App.class", false), ("Self", false), ("App<X", false),
      ("App<X>>", false), ("App<X,Y>", false), ("App<X,  Y>", false), ("App<>", false),
      ("(App, X)", false), ("App\n", false), ("App()", false), ("App.`class`", false),
      (String(repeating: "A<", count: 40) + "B" + String(repeating: ">", count: 40), false),
    ])
  func typeNames(_ name: String, _ isTypeName: Bool) {
    #expect(SwiftValue.isTypeName(name) == isTypeName)
  }

  @Test("a payload label that is not an identifier is decoded, not written")
  func payloadLabels() throws {
    let json =
      #"{"row":{"id":"00000000-0000-0000-0000-000000000001","x: 1)); print(1); _ = ((":1}}"#
    #expect(try render(json, "App.Action").hasPrefix("try decoded("))
  }

  static let structSchema: TypeSchema = {
    var schema = TypeSchema()
    schema.merge(
      try! JSONValue(
        parsing: #"""
          {
            "App.Book": {
              "struct": {"id": "Swift.Int", "name": "Architecture.BindingState<Swift.String>",
                "note": "Swift.String?"},
              "fields": {"id": "let", "_name": "var", "note": "var"}
            },
            "App.Renamed": {"struct": {"display_name": "Swift.String"}, "fields": {"name": "var"}},
            "App.Empty": {"struct": {}, "fields": {}},
            "App.Path": {"enum": {"book": {"_0": "App.Book"}}}
          }
          """#
      )
    )
    return schema
  }()

  func renderStruct(_ json: String, _ type: String) throws -> String {
    var renderer = SwiftRenderer(schema: Self.structSchema)
    return renderer.expression(try JSONValue(parsing: json), type: type)
  }

  @Test("a struct is its memberwise initializer: fields in order, a wrapper by its wrapped name")
  func memberwise() throws {
    #expect(
      try renderStruct(#"{"id":1,"name":"Dune"}"#, "App.Book")
        == #"Book(id: 1, name: "Dune", note: nil)"#)
    #expect(try renderStruct("{}", "App.Empty") == "Empty()")
  }

  @Test("a struct encoded under other names than its properties is decoded")
  func renamedMembersDecode() throws {
    #expect(
      try renderStruct(#"{"display_name":"Ada"}"#, "App.Renamed")
        == ##"try decoded(#"{"display_name":"Ada"}"#)"##)
  }

  @Test("a stack keeps its recorded ids, element by element")
  func stack() throws {
    #expect(
      try renderStruct(
        #"[{"id":2,"element":{"book":{"_0":{"id":1,"name":"A"}}}}]"#,
        "Architecture.StackState<App.Path>")
        == """
        {
          var stack = StackState<App.Path>()
          stack[id: 2] = .book(Book(id: 1, name: "A", note: nil))
          return stack
        }()
        """
    )
  }

  @Test("a type decoded although the trace says it is not Decodable is named, and only then")
  func undecodableTypesAreNamed() throws {
    var schema = Self.structSchema
    schema.merge(try JSONValue(parsing: #"{"App.Book": {"struct": {}, "decodable": true}}"#))
    var renderer = SwiftRenderer(schema: schema)
    _ = renderer.expression(try JSONValue(parsing: #"{"display_name":"Ada"}"#), type: "App.Renamed")
    _ = renderer.expression(try JSONValue(parsing: #"{"id":1,"name":"A"}"#), type: "App.Book")
    #expect(renderer.undecodableTypes == ["App.Renamed"])
  }
}
