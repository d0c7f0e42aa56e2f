import Architecture
import Testing

@MainActor
@Suite("ifCaseLet")
struct IfCaseLetReducerTests {
  struct Timer: Reducer {
    struct State: Equatable { var ticks = 0 }
    enum Action: Equatable { case start, tick, finish }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.ticks += 1
        return .none
      case .finish:
        state.ticks = -1
        return .none
      }
    }
  }

  struct Parent: Reducer {
    enum State: Equatable {
      case running(Timer.State)
      case idle
      case finished(ticks: Int)
    }
    enum Action: Equatable {
      case timer(Timer.Action)
      case stop
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .timer(.finish):
          // The child saw the action first, while its state was still there.
          guard case let .running(timer) = state else { return .none }
          state = .finished(ticks: timer.ticks)
          return .none
        case .timer:
          return .none
        case .stop:
          state = .idle
          return .none
        }
      }
      .ifCaseLet(/State.running, action: /Action.timer) {
        Timer()
      }
    }
  }

  @Test("the case reducer runs on the case's state, before the parent")
  func runsChildFirst() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Parent.State.running(Timer.State())) { Parent() }
      await store.send(.timer(.tick)) { $0 = .running(Timer.State(ticks: 1)) }
      await store.send(.timer(.finish)) { $0 = .finished(ticks: -1) }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("an action for the case while the state is in another case is reported, not run")
  func reportsWrongCase() async {
    var line: UInt = 0
    let issues = await withIssueCapture {
      line = #line + 2
      let reducer = Reduce<Parent.State, Parent.Action> { _, _ in .none }
        .ifCaseLet(/Parent.State.running, action: /Parent.Action.timer) { Timer() }
      let store = TestStore(initialState: Parent.State.idle) { reducer }
      await store.send(.timer(.tick))
    }
    #expect(issues.count == 1)
    let message = issues.first?.message ?? ""
    #expect(
      message.hasPrefix(
        """
        An "ifCaseLet" at "ArchitectureTests/IfCaseLetReducerTests.swift:\(line)" received a \
        child action when child state was set to a different case. …

          Action:
            IfCaseLetReducerTests.Parent.Action.timer(.tick)
          State:
            IfCaseLetReducerTests.Parent.State.idle

        This is generally considered an application logic error
        """
      ),
      "\(message)"
    )
    #expect(
      message.contains(
        """
        • A parent reducer set "IfCaseLetReducerTests.Parent.State" to a different case before \
        this reducer ran.
        """
      )
    )
    #expect(message.hasSuffix("In SwiftUI applications, use \"SwitchStore\"."))
    #expect(issues.first?.line == line)
  }

  @Test("leaving the case cancels the case's effects")
  func cancelsEffectsOnLeavingTheCase() async {
    let clock = TestClock()
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Parent.State.running(Timer.State())) {
        Parent()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.timer(.start))
      await clock.advance(by: .seconds(1))
      await store.receive(.timer(.tick)) { $0 = .running(Timer.State(ticks: 1)) }
      await store.send(.stop) { $0 = .idle }
      // Had the timer survived, it would tick here and still be running at the end.
      await clock.advance(by: .seconds(5))
    }
    #expect(issues.isEmpty, "\(issues)")
  }
}
