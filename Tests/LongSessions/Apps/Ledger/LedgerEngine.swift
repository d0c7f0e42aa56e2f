import Architecture
import Foundation

/// A cell's place on a sheet: a column letter and a row number.
struct CellAddress: Hashable {
  var column: String
  var row: Int

  /// The name a sheet shows: `B3`.
  var name: String { "\(column)\(row)" }
}

/// What a cell holds.
enum Cell: Equatable {
  case formula(Formula)
  case number(Double)
  case text(String)
}

/// A formula over other cells of the same sheet.
enum Formula: Equatable {
  case reference(CellAddress)
  case scaled(CellAddress, by: Double)
  case sum(column: String, rows: [Int])
}

/// A sheet: cells by column, then by row.
struct Sheet: Equatable {
  var cells: [String: [Int: Cell]] = [:]

  subscript(address: CellAddress) -> Cell? {
    get { cells[address.column]?[address.row] }
    set { cells[address.column, default: [:]][address.row] = newValue }
  }
}

/// A sheet's totals by column, and what working them out cost.
struct Evaluation: Equatable {
  var cost: Duration
  var totals: [String: Double]
}

/// Why a sheet could not be evaluated.
enum EvaluationError: LocalizedError, Equatable {
  case circularReference(CellAddress)

  var errorDescription: String? {
    switch self {
    case let .circularReference(address):
      "\(address.name) refers to itself."
    }
  }
}

/// Evaluates sheets and saves them.
struct LedgerEngine {
  var evaluate: @Sendable (_ sheet: Sheet) async throws -> Evaluation
  var save: @Sendable (_ sheets: [String: Sheet]) async throws -> Int
}

extension LedgerEngine: DependencyKey {
  static let liveValue = LedgerEngine(
    evaluate: { sheet in
      func value(_ address: CellAddress, depth: Int) throws -> Double {
        guard depth < 8 else { throw EvaluationError.circularReference(address) }
        switch sheet[address] {
        case let .number(number)?: return number
        case let .formula(.reference(other))?: return try value(other, depth: depth + 1)
        case let .formula(.scaled(other, factor))?:
          return try value(other, depth: depth + 1) * factor
        case let .formula(.sum(column, rows))?:
          return try rows.reduce(0) {
            $0 + (try value(CellAddress(column: column, row: $1), depth: depth + 1))
          }
        case .text?, nil: return 0
        }
      }
      var totals: [String: Double] = [:]
      var count = 0
      // Sorted, so that the sums add up in the same order, to the same last bit, every run.
      for (column, rows) in sheet.cells.sorted(by: { $0.key < $1.key }) {
        for row in rows.keys.sorted() {
          totals[column, default: 0] += try value(CellAddress(column: column, row: row), depth: 0)
          count += 1
        }
      }
      return Evaluation(cost: .milliseconds(3 * count), totals: totals)
    },
    save: { sheets in sheets.values.reduce(0) { $0 + $1.cells.count } }
  )

  static let testValue = LedgerEngine(
    evaluate: unimplemented("LedgerEngine.evaluate"),
    save: unimplemented("LedgerEngine.save")
  )
}

extension DependencyValues {
  var ledgerEngine: LedgerEngine {
    get { self[LedgerEngine.self] }
    set { self[LedgerEngine.self] = newValue }
  }
}
