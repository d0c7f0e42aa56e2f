import Architecture
import Foundation

/// A shift on the warehouse floor: bins added through the sheet (one cancelled), deliveries,
/// timed picks paused and resumed, restocks (one from a supplier who has none left), stock
/// moved through the dialog, a bin removed after the alert, another kept.
@MainActor
func playWarehouseSession(_ driver: LongSessionDriver<Warehouse.State, Warehouse.Action>) async {
  let products = ["bolts", "nuts", "washers", "X-gaskets"]
  await driver.send(.shiftStarted)
  for (index, label) in ["Aisle 1", "Aisle 2", "Dock", "Overflow", "Cage"].enumerated() {
    await addBin(driver, label: label, capacity: 20 + 10 * index, saves: index != 3)
  }
  await driver.send(.deliveryArrived(sku: "bolts", quantity: 30))
  await driver.send(.deliveryArrived(sku: "nuts", quantity: 25))

  for round in 0..<160 {
    if round % 25 == 24 { await addBin(driver, label: "Bay \(round)", capacity: 30, saves: true) }
    let bins = driver.state.bins
    guard !bins.isEmpty else { break }
    let bin = bins[driver.next(0..<bins.count)]
    let sku = products[driver.next(0..<products.count)]
    switch driver.next(0..<10) {
    case 0..<4:
      // A pick: the timer ticks; sometimes paused and resumed.
      await driver.send(.bin(id: bin.id, action: .pickStarted(sku)))
      guard case .running? = driver.state.bins[id: bin.id]?.pick else { break }
      await driver.advance(by: .seconds(1 + driver.next(0..<4)))
      if driver.chance(40) {
        await driver.send(.bin(id: bin.id, action: .pickPaused))
        await driver.send(.binSelected(bin.id))
        await driver.send(.bin(id: bin.id, action: .pickStarted(sku)))
        await driver.advance(by: .seconds(1 + driver.next(0..<3)))
      }
      await driver.send(.bin(id: bin.id, action: .pickFinished))
    case 4..<6:
      await driver.send(.bin(id: bin.id, action: .restockButtonTapped(sku)))
      await driver.advance(by: .seconds(4))
    case 6:
      guard let stocked = bin.stock.keys.sorted().first else { break }
      await driver.send(.moveButtonTapped(from: bin.id, sku: stocked))
      if driver.chance(70), let target = bins.first(where: { $0.id != bin.id }) {
        await driver.send(
          .destination(.presented(.move(.to(target.id, from: bin.id, sku: stocked)))))
      } else {
        await driver.send(.destination(.dismiss))
      }
    case 7:
      await driver.send(.deliveryArrived(sku: sku, quantity: 5 + driver.next(0..<20)))
    case 8:
      await driver.send(.binSelected(bin.id))
    default:
      await driver.send(.removeBinButtonTapped(bin.id))
      let removes = round > 20 && bins.count > 3
      await driver.send(
        removes ? .destination(.presented(.alert(.confirmRemove(bin.id)))) : .destination(.dismiss))
    }
  }
}

/// Adds a bin through the sheet, typing its label a letter at a time; or cancels the sheet.
@MainActor
private func addBin(
  _ driver: LongSessionDriver<Warehouse.State, Warehouse.Action>, label: String, capacity: Int,
  saves: Bool
) async {
  await driver.send(.addBinButtonTapped)
  var typed = ""
  for letter in label {
    typed.append(letter)
    await driver.send(.destination(.presented(.addBin(.binding(.set(\.$label, typed))))))
  }
  await driver.send(.destination(.presented(.addBin(.binding(.set(\.$capacity, capacity))))))
  await driver.send(
    .destination(.presented(.addBin(saves ? .saveButtonTapped : .cancelButtonTapped))))
}
