import Testing

@testable import Recorder
@testable import TraceJSON

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
      effects: [4, 5],
      types: ["App.Action": ["enum": ["bump": [:]]]]
    ),
    TraceStep(
      index: 10, time: 3, origin: .send, action: ["load": [:]], label: ".load", patch: JSONPatch(),
      dependencies: [], effects: [6]
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

  @Test("a step's started effects are written after its dependency values, and read back")
  func effectsMember() throws {
    let line = String(decoding: TraceRecord.step(Self.steps[3]).json.jsonBytes, as: UTF8.self)
    #expect(line.contains(#""deps":[{"uuid":"00000000-0000-0000-0000-000000000002"}],"effects":[4,5],"types":"#))
    #expect(!String(decoding: TraceRecord.step(Self.steps[0]).json.jsonBytes, as: UTF8.self).contains("effects"))
  }

  @Test("version 1 effect records, which recorded starts on lines of their own, still read")
  func versionOneStarts() throws {
    let line = #"{"kind":"effect","event":"started","effect":0,"step":4,"time":0.5}"#
    #expect(
      try TraceRecord(json: JSONValue(parsing: Array(line.utf8)))
        == .effect(EffectEvent(event: .started, effect: 0, step: 4, time: 0.5))
    )
  }

  @Test("a step whose effects are not a list of integers is refused, naming the member")
  func malformedEffects() throws {
    for bad in [#""effects":3"#, #""effects":["a"]"#, #""effects":[1.5]"#] {
      let line =
        #"{"kind":"step","index":0,"time":0,"origin":"send","action":null,"label":".x","patch":[],"#
        + bad + "}"
      #expect(
        throws: TraceFormatError(
          "\"effects\" must be an array of integers from 0 to 9007199254740991")
      ) {
        try TraceRecord(json: JSONValue(parsing: Array(line.utf8)))
      }
    }
  }
}
