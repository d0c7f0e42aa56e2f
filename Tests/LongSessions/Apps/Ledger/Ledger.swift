import Architecture
import Foundation

/// A ledger of sheets: edit cells in an editor (numbers, text, formulas), flag cells, undo,
/// sort; totals are worked out a moment after the last edit, and sheets are saved on request.
struct Ledger: Reducer {
  struct State: Equatable {
    var activeSheet = "Q1"
    var audit: [String: [AuditEntry]] = [:]
    var flagged: Set<String> = []
    var lastEvaluation: Recalculation?
    var lastSaved: Date?
    var mode = Mode.State.browsing
    var problem: String?
    var sheets: [String: Sheet] = ["Q1": Sheet()]
    var sort: SortOrder?
    var totals: [String: [String: Double]] = [:]
  }

  /// One edit, with what the cell held before, so it can be undone.
  struct AuditEntry: Equatable {
    var address: CellAddress
    var at: Date
    var previous: Cell?
  }

  /// When the totals were last worked out, and what it cost.
  struct Recalculation: Equatable {
    var at: Date
    var cost: Duration
    var sheet: String
  }

  enum SortOrder: Equatable {
    case byColumn(ascending: Bool)
    case byTotal
  }

  enum Action: Equatable {
    case cellCleared(CellAddress)
    case cellTapped(CellAddress)
    case evaluated(String, TaskResult<Evaluation>)
    case flagToggled(CellAddress)
    case mode(Mode.Action)
    case saveButtonTapped
    case saved(TaskResult<Int>)
    case sheetAdded(String)
    case sheetSelected(String)
    case sortChanged(SortOrder?)
    case undoButtonTapped
  }

  /// Browsing the sheet, or editing a cell.
  struct Mode: Reducer {
    enum State: Equatable {
      case browsing
      case editing(CellEditor.State)
    }

    enum Action: Equatable {
      case editing(CellEditor.Action)
    }

    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(/State.editing, action: /Action.editing) {
          CellEditor()
        }
    }
  }

  enum CancelID: Hashable {
    case evaluation(String)
    case save
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.ledgerEngine) var engine

  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: /Action.mode) {
      Mode()
    }
    Reduce { state, action in
      switch action {
      case let .cellCleared(address):
        return write(nil, at: address, into: &state)

      case let .cellTapped(address):
        let text: String
        let kind: CellEditor.Kind
        switch state.sheets[state.activeSheet]?[address] {
        case let .number(number)?: (text, kind) = ("\(number)", .number)
        case let .text(value)?: (text, kind) = (value, .text)
        case .formula?: (text, kind) = ("=", .formula)
        case nil: (text, kind) = ("", .number)
        }
        state.mode = .editing(CellEditor.State(address: address, kind: kind, text: text))
        return .none

      case let .evaluated(sheet, .failure(error)):
        state.problem = error.localizedDescription
        state.totals[sheet] = nil
        return .none

      case let .evaluated(sheet, .success(evaluation)):
        state.problem = nil
        state.totals[sheet] = evaluation.totals
        state.lastEvaluation = Recalculation(at: now, cost: evaluation.cost, sheet: sheet)
        return .none

      case let .flagToggled(address):
        if state.flagged.remove(address.name) == nil { state.flagged.insert(address.name) }
        return .none

      case .mode(.editing(.delegate(.cancelled))):
        state.mode = .browsing
        return .none

      case let .mode(.editing(.delegate(.committed(address, cell)))):
        state.mode = .browsing
        return write(cell, at: address, into: &state)

      case .mode:
        return .none

      case .saveButtonTapped:
        let sheets = state.sheets
        return .run { send in
          await send(.saved(TaskResult { try await self.engine.save(sheets) }))
        }
        .cancellable(id: CancelID.save, cancelInFlight: true)

      case let .saved(.failure(error)):
        state.problem = error.localizedDescription
        return .none

      case .saved(.success):
        state.lastSaved = now
        return .none

      case let .sheetAdded(name):
        guard state.sheets[name] == nil else { return .none }
        state.sheets[name] = Sheet()
        state.activeSheet = name
        return .none

      case let .sheetSelected(name):
        state.activeSheet = name
        state.mode = .browsing
        return .none

      case let .sortChanged(order):
        state.sort = order
        return .none

      case .undoButtonTapped:
        let sheet = state.activeSheet
        guard let entry = state.audit[sheet]?.popLast() else { return .none }
        state.sheets[sheet]?[entry.address] = entry.previous
        return evaluate(sheet, state: state)
      }
    }
  }

  private func write(
    _ cell: Cell?, at address: CellAddress, into state: inout State
  ) -> Effect<Action> {
    let sheet = state.activeSheet
    let previous = state.sheets[sheet]?[address]
    guard previous != cell else { return .none }
    state.audit[sheet, default: []].append(
      AuditEntry(address: address, at: now, previous: previous))
    state.sheets[sheet]?[address] = cell
    if cell == nil { state.flagged.remove(address.name) }
    return evaluate(sheet, state: state)
  }

  private func evaluate(_ name: String, state: State) -> Effect<Action> {
    guard let sheet = state.sheets[name] else { return .none }
    return .run { send in
      try await self.clock.sleep(for: .milliseconds(500))
      await send(.evaluated(name, TaskResult { try await self.engine.evaluate(sheet) }))
    }
    .cancellable(id: CancelID.evaluation(name), cancelInFlight: true)
  }
}
