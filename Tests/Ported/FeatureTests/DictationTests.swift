import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class DictationTests: XCTestCase {
  func testStateIsWhatHasBeenAssertedSoFar() async throws {
    let store = TestStore(initialState: Dictation.State()) {
      Dictation()
    } withDependencies: {
      $0.transcriber.finish = { "Buy more compost" }
    }

    await store.send(.startButtonTapped) {
      $0.draft = Draft()
    }
    await store.send(.stopButtonTapped)
    await store.receive(.finalTranscript("Buy more compost")) {
      $0.draft?.text = "Buy more compost"
      $0.draft?.wordCount = 3
    }
    // `.finished` was reduced with `.finalTranscript`, but it has not been asserted yet, so the
    // store's state still holds the draft.
    try await store.receive(.finished(XCTUnwrap(store.state.draft))) {
      $0.draft = nil
      $0.notes = [Draft(text: "Buy more compost", wordCount: 3)]
    }
    XCTAssertNil(store.state.draft)
  }

  func testStateInsideAnAssertionIsTheStateBeforeTheAction() async {
    let store = TestStore(initialState: Dictation.State()) {
      Dictation()
    } withDependencies: {
      $0.transcriber.finish = { "Repot the fern" }
    }

    await store.send(.startButtonTapped) {
      XCTAssertNil(store.state.draft)
      $0.draft = Draft()
    }
    XCTAssertEqual(store.state.draft, Draft())
    await store.send(.stopButtonTapped)
    await store.receive(.finalTranscript("Repot the fern")) {
      XCTAssertEqual(store.state.draft, Draft())
      $0.draft?.text = "Repot the fern"
      $0.draft?.wordCount = 3
    }
    await store.receive(.finished(Draft(text: "Repot the fern", wordCount: 3))) {
      XCTAssertEqual(store.state.draft?.text, "Repot the fern")
      $0.draft = nil
      $0.notes = [Draft(text: "Repot the fern", wordCount: 3)]
    }
    XCTAssertEqual(store.state.notes.count, 1)
  }

  func testSkippedActionsAreInTheStateOnceSkipped() async {
    let store = TestStore(initialState: Dictation.State(draft: Draft())) {
      Dictation()
    } withDependencies: {
      $0.transcriber.finish = { "Order seeds" }
    }
    store.exhaustivity = .off

    await store.send(.stopButtonTapped)
    await store.receive(.finalTranscript("Order seeds"))
    XCTAssertEqual(store.state.draft?.text, "Order seeds")
    XCTAssertEqual(store.state.notes, [])
    await store.skipReceivedActions()
    XCTAssertNil(store.state.draft)
    XCTAssertEqual(store.state.notes, [Draft(text: "Order seeds", wordCount: 2)])
  }
}
