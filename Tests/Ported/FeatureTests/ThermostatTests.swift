import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class ThermostatTests: XCTestCase {
  func testFansCombinedWithPlainClosuresRunTheirEffects() async {
    let store = TestStore(initialState: Thermostat.State()) {
      Thermostat()
    }

    await store.send(.ceilingFan(.powerButtonTapped)) {
      $0.ceilingFan.isOn = true
    }
    await store.receive(.ceilingFan(.spunUp)) {
      $0.ceilingFan.isSpinning = true
    }
    await store.send(.deskFan(.powerButtonTapped)) {
      $0.deskFan.isOn = true
    }
    await store.receive(.deskFan(.spunUp)) {
      $0.deskFan.isSpinning = true
    }
  }

  func testTooHotAlertTurnsOnBothFans() async {
    let store = TestStore(initialState: Thermostat.State()) {
      Thermostat()
    }

    await store.send(.temperatureRead(Reading(id: 1, celsius: 30))) {
      $0.readings = [Reading(id: 1, celsius: 30)]
      $0.alert = .tooHot
    }
    await store.send(.alert(.presented(.turnOnFansTapped))) {
      $0.alert = nil
    }
    await store.receive(.ceilingFan(.powerButtonTapped)) {
      $0.ceilingFan.isOn = true
    }
    await store.receive(.deskFan(.powerButtonTapped)) {
      $0.deskFan.isOn = true
    }
    await store.receive(.ceilingFan(.spunUp)) {
      $0.ceilingFan.isSpinning = true
    }
    await store.receive(.deskFan(.spunUp)) {
      $0.deskFan.isSpinning = true
    }
  }
}
