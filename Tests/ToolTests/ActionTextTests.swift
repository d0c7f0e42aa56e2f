import Testing
import TraceJSON

@testable import tca_replay

@Suite("actions typed at the prompt")
struct ActionTextTests {
  @Test("Swift-form cases read as the JSON Codable writes", arguments: [
    (".increment", #"{"increment":{}}"#),
    (".watered(zone: 1, liters: 13)", #"{"watered":{"zone":1,"liters":13}}"#),
    (#".stocked("flour", count: 2)"#, #"{"stocked":{"_0":"flour","count":2}}"#),
    (".destination(.presented(.save))", #"{"destination":{"_0":{"presented":{"_0":{"save":{}}}}}}"#),
    (".set(-2.5, [1, 2], nil, true)", #"{"set":{"_0":-2.5,"_1":[1,2],"_2":null,"_3":true}}"#),
    (#"{"raw":{"_0":1}}"#, #"{"raw":{"_0":1}}"#),
    (".select(id: UUID(7))", #"{"select":{"id":"00000000-0000-0000-0000-000000000007"}}"#),
    (".wait(.seconds(2))", #"{"wait":{"_0":[0,2000000000000000000]}}"#),
  ])
  func reads(text: String, json: String) throws {
    #expect(try ActionText.parse(text) == JSONValue(parsing: Array(json.utf8)))
  }

  @Test("what is not an action says why", arguments: [
    ".increment(", "increment", ".set(1 2)", #".say("open)"#, "{bad",
  ])
  func refuses(text: String) {
    #expect(throws: ActionText.ParseError.self) { try ActionText.parse(text) }
  }
}
