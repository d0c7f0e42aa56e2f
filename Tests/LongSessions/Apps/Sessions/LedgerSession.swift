import Architecture

/// A quarter's books: numbers typed into cells (some mistyped and fixed), formulas (one
/// circular, then corrected), text labels, flags, undos, a second sheet, sorting and saves.
@MainActor
func playLedgerSession(_ driver: LongSessionDriver<Ledger.State, Ledger.Action>) async {
  let columns = ["A", "B", "C"]
  for round in 0..<48 {
    if round == 24 { await driver.send(.sheetAdded("Q2")) }
    if round == 36 { await driver.send(.sheetSelected("Q1")) }
    let address = CellAddress(column: columns[driver.next(0..<3)], row: 1 + driver.next(0..<6))
    await driver.send(.cellTapped(address))
    switch driver.next(0..<10) {
    case 0..<5:
      await edit(driver, kind: .number, text: "\(driver.next(1..<500)).\(driver.next(0..<100))")
    case 5:
      // A typo the editor refuses, then the number meant.
      await edit(driver, kind: .number, text: "12o", commit: true)
      await edit(driver, kind: .number, text: "120")
    case 6:
      let other = address.column == "C" ? "A" : "C"
      let rows = (1...3).map { _ in "\(other)\(1 + driver.next(0..<6))" }
      await edit(driver, kind: .formula, text: "=SUM(\(rows.joined(separator: ",")))")
    case 7:
      await edit(driver, kind: .formula, text: "=A\(1 + driver.next(0..<6))*1.2")
    case 8:
      await edit(driver, kind: .text, text: ["rent", "travel", "fees"][driver.next(0..<3)])
    default:
      await driver.send(.mode(.editing(.cancelButtonTapped)))
    }
    if case .editing = driver.state.mode {
      await driver.send(.mode(.editing(.cancelButtonTapped)))
    }
    await driver.advance(by: .milliseconds(500))

    if round == 9 {
      // A cell that refers to itself: the totals fail until it is cleared.
      await driver.send(.cellTapped(CellAddress(column: "B", row: 9)))
      await edit(driver, kind: .formula, text: "=B9")
      await driver.advance(by: .milliseconds(500))
      await driver.send(.cellCleared(CellAddress(column: "B", row: 9)))
      await driver.advance(by: .milliseconds(500))
    }
    if driver.chance(30) { await driver.send(.flagToggled(address)) }
    if driver.chance(15) {
      await driver.send(.undoButtonTapped)
      await driver.advance(by: .milliseconds(500))
    }
    if round % 7 == 6 {
      let orders: [Ledger.SortOrder?] = [.byTotal, .byColumn(ascending: true), nil]
      await driver.send(.sortChanged(orders[driver.next(0..<3)]))
    }
    if round % 8 == 7 { await driver.send(.saveButtonTapped) }
    if driver.chance(10), let sheet = driver.state.sheets[driver.state.activeSheet],
      let column = sheet.cells.keys.sorted().first,
      let row = sheet.cells[column]?.keys.sorted().first
    {
      await driver.send(.cellCleared(CellAddress(column: column, row: row)))
      await driver.advance(by: .milliseconds(500))
    }
  }
  await driver.send(.saveButtonTapped)
}

/// Types `text` into the open editor a few characters at a time, picks its kind, commits.
@MainActor
private func edit(
  _ driver: LongSessionDriver<Ledger.State, Ledger.Action>, kind: CellEditor.Kind, text: String,
  commit: Bool = true
) async {
  if case let .editing(editor) = driver.state.mode, editor.kind != kind {
    await driver.send(.mode(.editing(.binding(.set(\.$kind, kind)))))
  }
  var typed = ""
  for chunk in text.chunks(of: 2) {
    typed += chunk
    await driver.send(.mode(.editing(.binding(.set(\.$text, typed)))))
  }
  if commit { await driver.send(.mode(.editing(.commitButtonTapped))) }
}
