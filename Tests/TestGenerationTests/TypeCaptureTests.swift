import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

@Suite("Types captured at record time")
struct TypeCaptureTests {
  struct Row: Codable {
    var id: UUID
    var note: String?
  }
  enum Kind: String, Codable {
    case small = "s"
  }
  enum Action: Codable {
    case tapped
    case renamed(String, to: Kind)
  }
  struct State: Codable {
    var rows: [Row]
    var kind: Kind
    var since: Date?
  }

  @Test("members, optionals (even nil), raw values and collections are described by Swift name")
  func state() throws {
    let capture = TypeCapture()
    capture.learn(from: State(rows: [Row(id: UUID(), note: nil)], kind: .small, since: nil))
    let schema = capture.schema
    let prefix = "TestGenerationTests.TypeCaptureTests."
    #expect(
      schema.description(of: prefix + "State")
        == .structure([
          .init(name: "rows", type: "Swift.Array<\(prefix)Row>"),
          .init(name: "kind", type: prefix + "Kind"),
          .init(name: "since", type: String(reflecting: Date.self), isOptional: true),
        ])
    )
    #expect(
      schema.description(of: prefix + "Row")
        == .structure([
          .init(name: "id", type: String(reflecting: UUID.self)),
          .init(name: "note", type: "Swift.String", isOptional: true),
        ])
    )
    #expect(
      schema.description(of: "Swift.Array<\(prefix)Row>") == .collection(element: prefix + "Row")
    )
    #expect(
      schema.description(of: prefix + "Kind") == .rawEnumeration([(raw: #""s""#, name: "small")])
    )
  }

  @Test("enum cases add up as they are met, and each new fact is handed out once")
  func actions() throws {
    let capture = TypeCapture()
    capture.learn(from: Action.tapped)
    #expect(capture.takeNewFacts() != nil)
    capture.learn(from: Action.tapped)
    #expect(capture.takeNewFacts() == nil)
    capture.learn(from: Action.renamed("x", to: .small))
    let facts = try #require(capture.takeNewFacts())
    var schema = TypeSchema()
    schema.merge(facts)
    let prefix = "TestGenerationTests.TypeCaptureTests."
    #expect(
      capture.schema.description(of: prefix + "Action")
        == .enumeration([
          (name: "tapped", payload: []),
          (name: "renamed", payload: [
            .init(name: "_0", type: "Swift.String"), .init(name: "to", type: prefix + "Kind"),
          ]),
        ])
    )
    #expect(schema.description(of: prefix + "Kind") != nil)
  }

  @Test("the recorder can tell, from JSON alone, an action that holds nothing new")
  func covers() throws {
    let capture = TypeCapture()
    capture.learn(from: Action.renamed("x", to: .small))
    let type = String(reflecting: Action.self)
    let schema = capture.schema
    #expect(schema.covers(try JSONValue(parsing: #"{"renamed":{"_0":"y","to":"s"}}"#), type: type))
    #expect(!schema.covers(try JSONValue(parsing: #"{"tapped":{}}"#), type: type))
    #expect(!schema.covers(try JSONValue(parsing: #"{"renamed":{"_0":"y","to":"m"}}"#), type: type))
  }

  @Test("a schema survives its JSON form")
  func roundTrip() throws {
    let capture = TypeCapture()
    capture.learn(from: State(rows: [Row(id: UUID(), note: "n")], kind: .small, since: Date()))
    capture.learn(from: Action.renamed("x", to: .small))
    var read = TypeSchema()
    read.merge(try JSONValue(parsing: capture.schema.json.jsonString))
    #expect(read == capture.schema)
  }

  struct Book: Codable {
    let id: Int
    var title: String
    var note: String?
  }
  struct Empty: Codable {}
  /// Encodable alone, as a feature recorded without `Decodable`.
  struct Shown: Encodable {
    var text: String
  }
  /// Encoded under another name than its property: described by its facts alone.
  struct Renamed: Codable {
    var name: String
    enum CodingKeys: String, CodingKey { case name = "display_name" }
  }
  struct Shelf: Encodable {
    var book: Book
    var empty: Empty
    var shown: Shown
    var renamed: Renamed
  }

  @Test("a struct's stored properties are read from its metadata in order, each let or var")
  func storedProperties() throws {
    let capture = TypeCapture()
    capture.learn(
      from: Shelf(
        book: Book(id: 1, title: "Dune", note: nil), empty: Empty(), shown: Shown(text: ""),
        renamed: Renamed(name: "Ada")))
    let schema = capture.schema
    let prefix = "TestGenerationTests.TypeCaptureTests."
    #expect(
      schema.fields[prefix + "Book"]
        == [
          .init(name: "id", isLet: true), .init(name: "title", isLet: false),
          .init(name: "note", isLet: false),
        ]
    )
    #expect(schema.fields[prefix + "Empty"] == [])
    #expect(schema.description(of: prefix + "Empty") == .structure([]))
    #expect(schema.decodableTypes.contains(prefix + "Book"))
    #expect(!schema.decodableTypes.contains(prefix + "Shown"))
    #expect(!schema.decodableTypes.contains(prefix + "Shelf"))
    #expect(schema.description(of: prefix + "Renamed") == nil)
    #expect(schema.fields[prefix + "Renamed"] == [.init(name: "name", isLet: false)])
    var read = TypeSchema()
    read.merge(try JSONValue(parsing: capture.schema.json.jsonString))
    #expect(read == schema)
  }

  struct Favouriting {
    let favourite: @Sendable (Int) -> Bool
    var limit = 3
    @Dependency(\.uuid) var uuid
  }

  @Test("a reducer's stored properties but its @Dependency ones are what Feature() cannot supply")
  func reducerProperties() {
    #expect(
      ReducerProperties.names(of: Favouriting(favourite: { _ in true })) == ["favourite", "limit"])
  }
}
