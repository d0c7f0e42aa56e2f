import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class IntervalWorkoutTests: XCTestCase {
  func testStartCountsDownOncePerSecond() async {
    let clock = TestClock()
    let store = TestStore(initialState: IntervalWorkout.State()) {
      IntervalWorkout()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.startButtonTapped) {
      $0.isRunning = true
      $0.phase = .work
      $0.secondsRemaining = 20
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.secondsRemaining = 19
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.secondsRemaining = 18
    }
    await store.send(.pauseButtonTapped) {
      $0.isRunning = false
    }
  }

  func testPausingStopsTheTimerAndResumingContinues() async {
    let clock = TestClock()
    let store = TestStore(initialState: IntervalWorkout.State()) {
      IntervalWorkout()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.startButtonTapped) {
      $0.isRunning = true
      $0.phase = .work
      $0.secondsRemaining = 20
    }
    await store.send(.pauseButtonTapped) {
      $0.isRunning = false
    }
    await clock.advance(by: .seconds(10))

    await store.send(.startButtonTapped) {
      $0.isRunning = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.secondsRemaining = 19
    }
    await store.send(.resetButtonTapped) {
      $0.isRunning = false
      $0.phase = .idle
      $0.secondsRemaining = 0
    }
  }

  func testWorkThenRestThenTheNextRound() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: IntervalWorkout.State(restSeconds: 1, rounds: 2, workSeconds: 2)
    ) {
      IntervalWorkout()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.startButtonTapped) {
      $0.isRunning = true
      $0.phase = .work
      $0.secondsRemaining = 2
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsRemaining = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.phase = .rest
      $0.secondsRemaining = 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.currentRound = 2
      $0.phase = .work
      $0.secondsRemaining = 2
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsRemaining = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.isRunning = false
      $0.phase = .done
      $0.secondsRemaining = 0
    }
    await store.receive(.delegate(.completed(rounds: 2)))
    await clock.run()
  }

  func testFinishingSkipsToTheEndNonExhaustively() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: IntervalWorkout.State(restSeconds: 5, rounds: 3, workSeconds: 10)
    ) {
      IntervalWorkout()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.withExhaustivity(.off) {
      await store.send(.startButtonTapped)
      await clock.advance(by: .seconds(40))
      await store.receive(.delegate(.completed(rounds: 3)))
    }
    store.assert {
      $0.currentRound = 3
      $0.isRunning = false
      $0.phase = .done
      $0.secondsRemaining = 0
    }
  }

  func testLeavingTheScreenCancelsTheTimer() async {
    let clock = TestClock()
    let store = TestStore(initialState: IntervalWorkout.State()) {
      IntervalWorkout()
    } withDependencies: {
      $0.continuousClock = clock
    }

    let task = await store.send(.startButtonTapped) {
      $0.isRunning = true
      $0.phase = .work
      $0.secondsRemaining = 20
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.secondsRemaining = 19
    }
    await task.cancel()
    await clock.advance(by: .seconds(5))
    await store.finish()
  }
}
