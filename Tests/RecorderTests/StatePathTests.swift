import Testing

@testable import Recorder
@testable import TraceJSON

@Suite("State paths that follow elements by id")
struct StatePathTests {
  let state: JSONValue = try! JSONValue(
    parsing: #"""
      {"todos":[{"id":"b","title":"Milk"},{"id":"a]/\"x","title":"Odd"},{"id":3,"title":"Num"},
      {"id":"3","title":"Text"}],
      "path":[{"id":0,"element":{"detail":{"name":"Ada"}}}],
      "grid":[[1,2],[3,4]]}
      """#)

  @Test("a selector finds the element by id wherever it is, and names its position now")
  func resolves() throws {
    let path = try #require(StatePath("/todos[id=b]/title"))
    #expect(path.resolve(in: state) == .string("Milk"))
    #expect(path.pointer(in: state)?.description == "/todos/0/title")
    var moved = state
    if case .object(var object) = moved, case .array(var todos)? = object["todos"] {
      todos.swapAt(0, 2)
      object["todos"] = .array(todos)
      moved = .object(object)
    }
    #expect(path.resolve(in: moved) == .string("Milk"))
    #expect(path.pointer(in: moved)?.description == "/todos/2/title")
  }

  @Test("bare text matches a string or a number written the same; JSON matches exactly")
  func bareAndJSONIDs() throws {
    #expect(StatePath("/todos[id=3]/title")?.resolve(in: state) == .string("Num"))
    #expect(StatePath(#"/todos[id="3"]/title"#)?.resolve(in: state) == .string("Text"))
    #expect(StatePath(#"/todos[id="a]/\"x"]/title"#)?.resolve(in: state) == .string("Odd"))
    #expect(StatePath("/path[id=0]/element/detail/name")?.resolve(in: state) == .string("Ada"))
    #expect(StatePath("/todos[id=zzz]")?.resolve(in: state) == nil)
    #expect(StatePath("/grid/1/0")?.resolve(in: state) == .integer(3))
  }

  @Test("a positional pointer becomes the path that follows its elements, and reads back")
  func identifyingRoundTrips() throws {
    for (pointer, expected) in [
      ("/todos/0/title", "/todos[id=b]/title"),
      ("/todos/1/title", #"/todos[id="a]/\"x"]/title"#),
      ("/todos/2", "/todos[id=3]"),
      ("/todos/3", #"/todos[id="3"]"#),
      ("/grid/1/0", "/grid/1/0"),
      ("/path/0/element", "/path[id=0]/element"),
    ] {
      let path = StatePath(identifying: JSONPointer(pointer)!, in: state)
      #expect(path.description == expected)
      let reparsed = try #require(StatePath(path.description), "\(path) parses")
      #expect(reparsed.pointer(in: state)?.description == pointer)
    }
  }

  @Test("malformed selectors are refused, not guessed")
  func malformed() {
    for text in ["todos", "/todos[id=b", "/todos[id=]", "/todos[x=b]", "/todos[id=b]x",
      #"/todos[id="b]"#, "/a/~2"]
    {
      #expect(StatePath(text) == nil, "\(text)")
    }
    #expect(StatePath("")?.isRoot == true)
  }

  @Test("a search sees a moved element as the same match, and reports appear/change/disappear")
  func search() throws {
    let search = StateSearch(query: "milk")
    let start = search.start(with: state)
    #expect(start == [.appears(path: StatePath("/todos[id=b]/title")!, value: "Milk")])
    func todos(_ list: String) throws -> JSONValue {
      guard case .object(var object) = state else { return state }
      object["todos"] = try JSONValue(parsing: list)
      return .object(object)
    }
    let moved = try todos(#"[{"id":"c","title":"Tea"},{"id":"b","title":"Milk"}]"#)
    let patch = JSONPatch.diff(from: state, to: moved)
    #expect(search.advance(from: state, to: moved, touching: patch) == [])
    let renamed = try todos(#"[{"id":"c","title":"Oat MILK"},{"id":"b","title":"Bread"}]"#)
    let events = search.advance(
      from: moved, to: renamed, touching: JSONPatch.diff(from: moved, to: renamed))
    #expect(
      events == [
        .appears(path: StatePath("/todos[id=c]/title")!, value: "Oat MILK"),
        .disappears(path: StatePath("/todos[id=b]/title")!, value: "Milk"),
      ])
    #expect(StateSearch(query: "3").start(with: state).map(\.path.description).contains(
      "/grid/1/0"))
  }
}

@Suite("State paths that follow dictionary values by key")
struct KeyedStatePathTests {
  /// `[ProductID: Int]` (a flat array of keys and values) and `[Int: String]` (an object).
  let state: JSONValue = try! JSONValue(
    parsing: #"{"quantities":[13,2,7,1],"notes":{"13":"gift"},"byPin":[{"a":1},5]}"#)

  @Test("[key=…] finds a value in a flat array of keys and values, and in an object")
  func resolves() throws {
    let flat = try #require(StatePath("/quantities[key=7]"))
    #expect(flat.resolve(in: state) == .integer(1))
    #expect(flat.pointer(in: state)?.description == "/quantities/3")
    #expect(StatePath("/notes[key=13]")?.resolve(in: state) == .string("gift"))
    #expect(StatePath("/notes[key=13]")?.pointer(in: state)?.description == "/notes/13")
    #expect(StatePath(#"/byPin[key={"a":1}]"#)?.resolve(in: state) == .integer(5))
    #expect(StatePath("/quantities[key=2]")?.resolve(in: state) == nil)
  }

  @Test("a key selector prints as it parses, and counts as following identity")
  func roundTrips() throws {
    for text in ["/quantities[key=7]", #"/byPin[key={"a":1}]"#, "/a[key=x]/b[id=3]"] {
      let path = try #require(StatePath(text))
      #expect(path.description == text)
      #expect(path.followsIdentity)
    }
    #expect(StatePath("/a[key=]") == nil)
    #expect(StatePath("/a[key={]") == nil)
  }

  @Test("a position in a keyed dictionary is followed as its key, given the types")
  func follows() throws {
    var schema = TypeSchema()
    schema.merge(
      try JSONValue(
        parsing: #"""
          {"S":{"struct":{"quantities":"Swift.Dictionary<S.ID, Swift.Int>",
          "notes":"Swift.Dictionary<Swift.Int, Swift.String>"}}}
          """#))
    let value = try #require(JSONPointer("/quantities/3"))
    #expect(schema.path(following: value, in: state, root: "S").description == "/quantities[key=7]")
    let note = try #require(JSONPointer("/notes/13"))
    #expect(schema.path(following: note, in: state, root: "S").description == "/notes[key=13]")
  }
}
