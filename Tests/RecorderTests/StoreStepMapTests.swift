import Testing

@testable import Recorder

@Suite("Store steps to trace steps")
struct StoreStepMapTests {
  @Test("a recorder that sees every store step keeps one run, however long the session")
  func everyStepIsOneRun() {
    var map = StoreStepMap()
    // The recorder joined at store step 5: trace step 0.
    for step in 5..<100_005 { map.record(storeStep: step, traceStep: step - 5) }
    #expect(map.runCount == 1)
    #expect(map.traceStep(ofStoreStep: 5) == 0)
    #expect(map.traceStep(ofStoreStep: 70_000) == 69_995)
    #expect(map.traceStep(ofStoreStep: 4) == nil)
    #expect(map.traceStep(ofStoreStep: 100_005) == nil)
  }

  @Test("store steps the recorder did not see have no trace step")
  func gapsAreUnknown() {
    var map = StoreStepMap()
    // A recorder inside a scope: store steps 2, 3 and 6 went elsewhere.
    for (trace, store) in [0, 1, 4, 5, 7].enumerated() { map.record(storeStep: store, traceStep: trace) }
    #expect([0, 1, 2, 3, 4, 5, 6, 7].map(map.traceStep(ofStoreStep:)) == [0, 1, nil, nil, 2, 3, nil, 4])
    #expect(map.runCount == 3)
  }

  @Test("a store step recorded twice answers with its later trace step")
  func laterRecordWins() {
    var map = StoreStepMap()
    map.record(storeStep: 0, traceStep: 0)
    map.record(storeStep: 1, traceStep: 1)
    map.record(storeStep: 1, traceStep: 2)
    map.record(storeStep: 2, traceStep: 3)
    #expect(map.traceStep(ofStoreStep: 0) == 0)
    #expect(map.traceStep(ofStoreStep: 1) == 2)
    #expect(map.traceStep(ofStoreStep: 2) == 3)
  }
}
