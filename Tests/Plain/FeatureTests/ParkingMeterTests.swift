import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Parking meter")
struct ParkingMeterTests {
  let paidAt = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("paying starts the meter, which counts the minutes down and stops at zero")
  func payAndRunOut() async {
    let clock = TestClock()
    let store = TestStore(initialState: ParkingMeter.State()) {
      ParkingMeter()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(paidAt)
      $0.paymentClient.charge = { "R-\($0)" }
    }
    await store.send(.addMinutesButtonTapped) {
      $0.minutesSelected = 15
    }
    await store.send(.payButtonTapped) {
      $0.isPaying = true
    }
    await store.receive(.chargeResponse(.success("R-75"))) {
      $0.isPaying = false
      $0.minutesLeft = 15
      $0.minutesSelected = 0
      $0.paidAt = paidAt
      $0.receipt = ConfirmationDialogState(titleVisibility: .visible) {
        TextState("Paid")
      } actions: {
        ButtonState(role: .cancel) { TextState("Done") }
      } message: {
        TextState("Receipt R-75")
      }
    }
    await clock.advance(by: .seconds(60))
    await store.receive(.timerTicked) {
      $0.minutesLeft = 14
    }
    for minutesLeft in (0..<14).reversed() {
      await clock.advance(by: .seconds(60))
      await store.receive(.timerTicked) {
        $0.minutesLeft = minutesLeft
      }
    }
    #expect(!store.state.isRunning)
  }

  @Test("a declined card shows the error's own description, keeps the minutes, and bars retries")
  func declined() async {
    let store = TestStore(initialState: ParkingMeter.State(minutesSelected: 45)) {
      ParkingMeter()
    } withDependencies: {
      $0.paymentClient.charge = { _ in throw PaymentError.cardDeclined }
    }

    await store.send(.payButtonTapped) {
      $0.isPaying = true
    }
    await store.receive(.chargeResponse(.failure(PaymentError.cardDeclined))) {
      $0.isPaying = false
      $0.canRetry = false
      $0.paymentError = "The card was declined."
    }
    await store.send(.payButtonTapped)
  }

  @Test("an offline meter is another PaymentError: its description is shown and paying may retry")
  func offline() async {
    let store = TestStore(initialState: ParkingMeter.State(minutesSelected: 15)) {
      ParkingMeter()
    } withDependencies: {
      $0.paymentClient.charge = { _ in throw PaymentError.meterOffline }
    }

    await store.send(.payButtonTapped) {
      $0.isPaying = true
    }
    await store.receive(.chargeResponse(.failure(PaymentError.meterOffline))) {
      $0.isPaying = false
      $0.paymentError = "The meter cannot reach the bank."
    }
    await store.send(.payButtonTapped) {
      $0.isPaying = true
      $0.paymentError = nil
    }
    await store.receive(.chargeResponse(.failure(PaymentError.meterOffline))) {
      $0.isPaying = false
      $0.paymentError = "The meter cannot reach the bank."
    }
  }

  @Test("a failure that is not a PaymentError leaves retrying allowed")
  func foreignError() async {
    let store = TestStore(initialState: ParkingMeter.State(minutesSelected: 15)) {
      ParkingMeter()
    } withDependencies: {
      $0.paymentClient.charge = { _ in throw URLError(.timedOut) }
    }

    await store.send(.payButtonTapped) {
      $0.isPaying = true
    }
    await store.receive(.chargeResponse(.failure(URLError(.timedOut)))) {
      $0.isPaying = false
      $0.paymentError = URLError(.timedOut).localizedDescription
    }
    #expect(store.state.canRetry)
  }

  @Test("resetting stops a running meter")
  func resetStopsTimer() async {
    let clock = TestClock()
    let store = TestStore(initialState: ParkingMeter.State(minutesSelected: 15)) {
      ParkingMeter()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(paidAt)
      $0.paymentClient.charge = { "R-\($0)" }
    }
    store.exhaustivity = .off

    await store.send(.payButtonTapped)
    await store.receive(.chargeResponse(.success("R-75")))
    await store.send(.resetButtonTapped) {
      $0 = ParkingMeter.State()
    }
    await clock.advance(by: .seconds(120))
    #expect(store.state.minutesLeft == 0)
  }
}
