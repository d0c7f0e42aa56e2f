import Architecture
import ComposedApp
import Counter
import Foundation
import Testing

@MainActor
@Suite("ComposedApp")
struct AppFeatureTests {
  @Test("the counter tab's actions run CounterFeature through Scope, with the app's dependencies")
  func counterTab() async {
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a good number." }
    }

    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.count = 1
    }
    await store.send(.counter(.factButtonTapped)) {
      $0.counter.isLoading = true
    }
    await store.receive(.counter(.factResponse("1 is a good number."))) {
      $0.counter.isLoading = false
      $0.counter.fact = "1 is a good number."
    }
  }

  @Test("the counter's timer ticks on the app's clock, its actions wrapped by Scope")
  func counterTimer() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.counter(.toggleTimerButtonTapped)) {
      $0.counter.isTimerRunning = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.counter(.timerTick)) {
      $0.counter.count = 1
    }
    await store.send(.counter(.toggleTimerButtonTapped)) {
      $0.counter.isTimerRunning = false
    }
    try await clock.checkSuspension()
  }

  @Test("timer rows are added with ids from the uuid dependency and removed by id")
  func addAndRemoveTimers() async {
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.tabSelected(.timers)) {
      $0.selectedTab = .timers
    }
    await store.send(.addTimerButtonTapped) {
      $0.timers.append(TimerRow.State(id: UUID(counting: 0), name: "Timer 1"))
    }
    await store.send(.addTimerButtonTapped) {
      $0.timers.append(TimerRow.State(id: UUID(counting: 1), name: "Timer 2"))
    }
    await store.send(.removeTimerButtonTapped(id: UUID(counting: 0))) {
      $0.timers.remove(id: UUID(counting: 0))
    }
  }

  @Test("stopping one row's timer leaves the other row ticking")
  func stopOneTimer() async throws {
    let clock = TestClock()
    let first = TimerRow.State(id: UUID(counting: 0), name: "Timer 1")
    let second = TimerRow.State(id: UUID(counting: 1), name: "Timer 2")
    let store = TestStore(initialState: AppFeature.State(timers: [first, second])) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.timer(id: first.id, action: .startButtonTapped)) {
      $0.timers[id: first.id]?.isRunning = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(.timer(id: second.id, action: .startButtonTapped)) {
      $0.timers[id: second.id]?.isRunning = true
    }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.timer(id: first.id, action: .tick)) {
      $0.timers[id: first.id]?.secondsElapsed = 1
    }
    // Both rows use the same cancel id; `forEach` scopes it to the row.
    await store.send(.timer(id: first.id, action: .stopButtonTapped)) {
      $0.timers[id: first.id]?.isRunning = false
    }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.timer(id: second.id, action: .tick)) {
      $0.timers[id: second.id]?.secondsElapsed = 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(id: second.id, action: .tick)) {
      $0.timers[id: second.id]?.secondsElapsed = 2
    }
    await store.send(.timer(id: second.id, action: .stopButtonTapped)) {
      $0.timers[id: second.id]?.isRunning = false
    }
    try await clock.checkSuspension()
  }

  @Test("removing a running row cancels its ticks: no more ticks, no missing-element issue")
  func removeRunningTimer() async throws {
    let clock = TestClock()
    let first = TimerRow.State(id: UUID(counting: 0), name: "Timer 1")
    let second = TimerRow.State(id: UUID(counting: 1), name: "Timer 2")
    let store = TestStore(initialState: AppFeature.State(timers: [first, second])) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    let issues = await withIssueCapture {
      await store.send(.timer(id: first.id, action: .startButtonTapped)) {
        $0.timers[id: first.id]?.isRunning = true
      }
      await clock.advance(by: .milliseconds(500))
      await store.send(.timer(id: second.id, action: .startButtonTapped)) {
        $0.timers[id: second.id]?.isRunning = true
      }
      await clock.advance(by: .milliseconds(500))
      await store.receive(.timer(id: first.id, action: .tick)) {
        $0.timers[id: first.id]?.secondsElapsed = 1
      }
      await store.send(.removeTimerButtonTapped(id: first.id)) {
        $0.timers.remove(id: first.id)
      }
      await clock.advance(by: .milliseconds(500))
      await store.receive(.timer(id: second.id, action: .tick)) {
        $0.timers[id: second.id]?.secondsElapsed = 1
      }
      // The removed row would tick now, at 2 s.
      await clock.advance(by: .milliseconds(500))
      await clock.advance(by: .milliseconds(500))
      await store.receive(.timer(id: second.id, action: .tick)) {
        $0.timers[id: second.id]?.secondsElapsed = 2
      }
      // And now, at 3 s.
      await clock.advance(by: .milliseconds(500))
      await store.send(.timer(id: second.id, action: .stopButtonTapped)) {
        $0.timers[id: second.id]?.isRunning = false
      }
    }
    #expect(issues.isEmpty, "\(issues)")
    try await clock.checkSuspension()
  }

  @Test("an action for a row that is not in the list is reported by forEach, and not run")
  func actionForMissingRow() async {
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    }

    let issues = await withIssueCapture {
      await store.send(.timer(id: UUID(counting: 7), action: .startButtonTapped))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix(#"A "forEach" at"#) == true)
    #expect(issues.first?.fileID == "ComposedApp/AppFeature.swift")
  }

  @Test("the presented download reports progress on the clock, then its result")
  func download() async {
    let clock = TestClock()
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.downloadButtonTapped) {
      $0.detail = Download.State(fileName: "trace.json")
    }
    await store.send(.detail(.startButtonTapped)) {
      $0.detail?.isDownloading = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.progressUpdated(percent: 25))) {
      $0.detail?.progress = 25
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.progressUpdated(percent: 50))) {
      $0.detail?.progress = 50
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.progressUpdated(percent: 75))) {
      $0.detail?.progress = 75
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.progressUpdated(percent: 100))) {
      $0.detail?.progress = 100
    }
    await store.receive(.detail(.downloadFinished("trace.json: 4 chunks"))) {
      $0.detail?.isDownloading = false
      $0.detail?.result = "trace.json: 4 chunks"
    }
  }

  @Test("dismissing the download mid-way cancels its effect: nothing more arrives")
  func dismissDuringDownload() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.downloadButtonTapped) {
      $0.detail = Download.State(fileName: "trace.json")
    }
    await store.send(.detail(.startButtonTapped)) {
      $0.detail?.isDownloading = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.progressUpdated(percent: 25))) {
      $0.detail?.progress = 25
    }
    await store.send(.dismissDetailButtonTapped) {
      $0.detail = nil
    }
    try await clock.checkSuspension()
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test("the download's cancel button stops it and keeps the screen presented")
  func cancelDownload() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.downloadButtonTapped) {
      $0.detail = Download.State(fileName: "trace.json")
    }
    await store.send(.detail(.startButtonTapped)) {
      $0.detail?.isDownloading = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.progressUpdated(percent: 25))) {
      $0.detail?.progress = 25
    }
    await store.send(.detail(.cancelButtonTapped)) {
      $0.detail?.isDownloading = false
      $0.detail?.progress = 0
    }
    try await clock.checkSuspension()
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test("a download action after dismissal is reported by ifLet, and not run")
  func actionAfterDismissal() async {
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    }

    await store.send(.downloadButtonTapped) {
      $0.detail = Download.State(fileName: "trace.json")
    }
    await store.send(.dismissDetailButtonTapped) {
      $0.detail = nil
    }
    let issues = await withIssueCapture {
      await store.send(.detail(.startButtonTapped))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix(#"An "ifLet" at"#) == true)
    #expect(issues.first?.fileID == "ComposedApp/AppFeature.swift")
  }

  @Test("state and actions survive a JSON round trip, as a recorder needs")
  func codable() throws {
    let row = TimerRow.State(id: UUID(counting: 3), name: "Timer 1", secondsElapsed: 4)
    let state = AppFeature.State(
      selectedTab: .timers,
      counter: CounterFeature.State(count: 2),
      timers: [row],
      detail: Download.State(fileName: "trace.json", progress: 50, isDownloading: true)
    )
    let actions: [AppFeature.Action] = [
      .counter(.factResponse("2 is a prime number.")),
      .detail(.progressUpdated(percent: 50)),
      .removeTimerButtonTapped(id: row.id),
      .tabSelected(.counter),
      .timer(id: row.id, action: .tick),
    ]

    let decodedState = try JSONDecoder().decode(
      AppFeature.State.self, from: JSONEncoder().encode(state)
    )
    let decodedActions = try JSONDecoder().decode(
      [AppFeature.Action].self, from: JSONEncoder().encode(actions)
    )
    #expect(decodedState == state)
    #expect(decodedActions == actions)
  }
}
