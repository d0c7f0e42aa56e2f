import Architecture

/// Buys half an hour, lets the meter run, has a bigger payment declined, resets, then buys a
/// quarter of an hour and lets it run out.
enum ParkingMeterSession: PlainSession {
  static let name = "Parking meter"
  static func makeReducer() -> ParkingMeter { ParkingMeter() }
  static func makeInitialState() -> ParkingMeter.State { ParkingMeter.State() }

  static func prepareDependencies(_ dependencies: inout DependencyValues) {
    dependencies.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
    dependencies.paymentClient.charge = { cents in
      guard cents <= 150 else { throw PaymentError.cardDeclined }
      return "P-\(cents)"
    }
  }

  static func drive(_ driver: PlainDriver<ParkingMeter.State, ParkingMeter.Action>) async {
    await driver.send(.addMinutesButtonTapped)
    await driver.send(.addMinutesButtonTapped)
    await driver.send(.payButtonTapped)
    await driver.send(.receipt(.dismiss))
    await driver.advance(by: .seconds(180), step: .seconds(60))
    for _ in 0..<3 { await driver.send(.addMinutesButtonTapped) }
    await driver.send(.payButtonTapped)
    await driver.send(.resetButtonTapped)
    await driver.send(.addMinutesButtonTapped)
    await driver.send(.payButtonTapped)
    await driver.advance(by: .seconds(15 * 60), step: .seconds(60))
    await driver.send(.receipt(.dismiss))
  }
}
