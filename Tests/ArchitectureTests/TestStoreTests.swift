import Architecture
import Testing

@MainActor
@Suite("TestStore")
struct TestStoreTests {
  struct Feature: Reducer {
    struct State: Equatable {
      var count = 0
      var isLoading = false
    }
    enum Action: Equatable {
      case increment, noop, load, loaded(Int), echo, longLiving, pingTwice, ping
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .noop:
        return .none
      case .load:
        state.isLoading = true
        return .run { send in await send(.loaded(42)) }
      case let .loaded(value):
        state.isLoading = false
        state.count = value
        return .none
      case .echo:
        return .send(.increment)
      case .longLiving:
        return .run { _ in try await Task.sleep(for: .seconds(3600)) }
      case .pingTwice:
        return .merge(.send(.ping), .send(.ping))
      case .ping:
        return .none
      }
    }
  }

  func makeStore() -> TestStore<Feature.State, Feature.Action> {
    TestStore(initialState: Feature.State()) { Feature() }
  }

  @Test("a passing send and receive report nothing")
  func passing() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.load) { $0.isLoading = true }
      await store.receive(.loaded(42)) {
        $0.isLoading = false
        $0.count = 42
      }
    }
    #expect(issues.isEmpty)
  }

  @Test("a state change that differs from the expectation is reported with a diff")
  func stateMismatch() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(issues.count == 1)
    let message = issues.first?.message ?? ""
    #expect(message.hasPrefix("A state change does not match expectation: …"))
    #expect(message.contains("(Expected: −, Actual: +)"))
    #expect(message.contains("count: 2"))
    #expect(message.contains("count: 1"))
    #expect(issues.first?.fileID == "ArchitectureTests/TestStoreTests.swift")
  }

  @Test("a change without a trailing closure is reported as unexpected")
  func unexpectedChange() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.increment)
    }
    #expect(issues.map(\.message.firstLine) == [
      "State was not expected to change, but a change occurred: …"
    ])
  }

  @Test("a trailing closure that changes nothing, for an action that changes nothing, is reported")
  func expectedChangeButNone() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.noop) { $0.count = 0 }
    }
    #expect(issues.map(\.message.firstLine) == ["Expected state to change, but no change occurred."])
  }

  @Test("receiving a different action than expected is reported with both actions")
  func unexpectedReceivedAction() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.load) { $0.isLoading = true }
      await store.receive(.loaded(7)) {
        $0.isLoading = false
        $0.count = 42
      }
    }
    #expect(issues.count == 1)
    let message = issues.first?.message ?? ""
    #expect(message.hasPrefix("Received unexpected action: …"))
    #expect(message.contains("(Expected: −, Received: +)"))
    #expect(message.contains("7"))
    #expect(message.contains("42"))
  }

  @Test("sending before handling received actions is reported with the unhandled actions")
  func unhandledReceivedBeforeSend() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.echo)
      await store.send(.noop)
    }
    #expect(issues.count == 1)
    let message = issues.first?.message ?? ""
    #expect(message.hasPrefix("Must handle 1 received action before sending an action: …"))
    #expect(message.contains("increment"))
  }

  @Test("received actions left unasserted at the end of the test are reported")
  func unhandledReceivedAtEnd() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.pingTwice)
    }
    #expect(issues.map(\.message.firstLine) == ["The store received 2 unexpected actions. …"])
  }

  @Test("an effect still running at the end of the test is reported at the send")
  func stillRunningAtEnd() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.longLiving)
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.message.hasPrefix(
        "An effect returned for this action is still running. It must complete before the end of the test. …"
      ) == true
    )
    #expect(issues.first?.message.contains("longLiving") == true)
    #expect(issues.first?.fileID == "ArchitectureTests/TestStoreTests.swift")
  }

  @Test("waiting for an action that never comes times out with TCA's wording")
  func receiveTimeout() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      let task = await store.send(.longLiving)
      await store.receive(.ping, timeout: .milliseconds(50))
      await task.cancel()
    }
    #expect(issues.map(\.message) == [
      "Expected to receive an action, but received none after 0.05 seconds."
    ])
  }

  @Test("finish reports effects still running after its timeout")
  func finishTimeout() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.longLiving)
      await store.finish(timeout: .milliseconds(50))
      await store.skipInFlightEffects()
    }
    #expect(issues.map(\.message.firstLine) == [
      "Expected effects to finish, but there are still effects in-flight after 0.05 seconds."
    ])
  }

  @Test("skipInFlightEffects cancels running effects so the test can end cleanly")
  func skipInFlightEffects() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.longLiving)
      await store.skipInFlightEffects()
    }
    #expect(issues.isEmpty)
  }

  @Test("skipReceivedActions clears unasserted actions and moves the asserted state along")
  func skipReceivedActions() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.echo)
      await store.skipReceivedActions()
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(issues.isEmpty)
  }

  @Test("receive by predicate and by case path match the next received action")
  func receiveByPredicateAndCase() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      await store.send(.load) { $0.isLoading = true }
      await store.receive({ if case .loaded = $0 { true } else { false } }) {
        $0.isLoading = false
        $0.count = 42
      }
      await store.send(.load) { $0.isLoading = true }
      await store.receive(/Feature.Action.loaded) {
        $0.isLoading = false
      }
    }
    #expect(issues.isEmpty)
  }

  @Test("with exhaustivity off only the asserted fields and actions are checked")
  func nonExhaustive() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      store.exhaustivity = .off
      await store.send(.load)
      await store.receive(.loaded(42)) { $0.count = 42 }
      await store.send(.pingTwice)
      await store.send(.longLiving)
    }
    #expect(issues.isEmpty)
  }

  @Test("with exhaustivity off a wrong assertion on a mentioned field still fails")
  func nonExhaustiveStillChecks() async {
    let issues = await withIssueCapture {
      let store = makeStore()
      store.exhaustivity = .off
      await store.send(.increment) { $0.count = 5 }
    }
    #expect(issues.map(\.message.firstLine) == ["A state change does not match expectation: …"])
  }

  @Test("a failure inside a Swift Testing test is recorded as an issue of that test")
  func reportsToSwiftTesting() async {
    await withKnownIssue {
      let store = makeStore()
      await store.send(.increment) { $0.count = 3 }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("A state change does not match") }
    }
  }

  @Test("advancing a test clock by n seconds delivers all n ticks of a store's timer effect")
  func timerTicksWithinOneAdvance() async {
    // Each tick is sent to the store on the main actor before the timer sleeps again, so the
    // clock must let the main actor run between wake-ups, or later ticks are skipped.
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Reduce<Int, Bool> { count, isTick in
        guard isTick else {
          return .run { send in
            for await _ in clock.timer(interval: .seconds(1)) { await send(true) }
          }
          .cancellable(id: "timer")
        }
        count += 1
        return .none
      }
    }
    let task = await store.send(false)
    await clock.advance(by: .seconds(3))
    await store.receive(true) { $0 = 1 }
    await store.receive(true) { $0 = 2 }
    await store.receive(true) { $0 = 3 }
    await task.cancel()
  }
}

extension String {
  var firstLine: String { split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? "" }
}
