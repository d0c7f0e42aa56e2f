import Testing

@testable import Recorder

@Suite("Trace records")
struct TraceRecordTests {
  static let steps: [TraceStep] = [
    TraceStep(
      index: 0, time: 0.25, origin: .send, action: ["bump": [:]], label: ".bump",
      patch: JSONPatch([.test(path: JSONPointer("/count")!, value: 0),
                        .replace(path: JSONPointer("/count")!, value: 1)]),
      dependencies: []
    ),
    TraceStep(
      index: 7, time: 12, origin: .effect(cause: 3), action: nil, label: ".failed",
      patch: JSONPatch(), dependencies: [.uuid("00000000-0000-0000-0000-000000000001"),
                                         .date(1.5), .random(.max)]
    ),
    TraceStep(
      index: 8, time: 1e-9, origin: .effect(cause: nil), action: ["say": ["_0": "\"hi\"\n"]],
      label: #".say("\"hi\"\n")"#, patch: JSONPatch([.add(path: JSONPointer("/a~1b")!, value: [1, 2])]),
      dependencies: []
    ),
    TraceStep(
      index: 9, time: 2, origin: .send, action: ["bump": [:]], label: ".bump", patch: JSONPatch(),
      dependencies: [.uuid("00000000-0000-0000-0000-000000000002")],
      types: ["App.Action": ["enum": ["bump": [:]]]]
    ),
  ]

  @Test("a step written directly has exactly the bytes of its JSON form", arguments: steps)
  func directSerialization(step: TraceStep) throws {
    var direct: [UInt8] = []
    TraceRecord.step(step).serialize(into: &direct)
    var viaJSON: [UInt8] = []
    TraceRecord.step(step).json.serialize(into: &viaJSON)
    #expect(String(decoding: direct, as: UTF8.self) == String(decoding: viaJSON, as: UTF8.self))
    #expect(try TraceRecord(json: JSONValue(parsing: direct)) == .step(step))
  }
}
