import Architecture

/// Edits one cell: the text typed and what kind of value it is, committed or cancelled.
struct CellEditor: Reducer {
  struct State: Equatable {
    var address: CellAddress
    var error: String?
    @BindingState var kind = Kind.number
    @BindingState var text = ""
  }

  enum Kind: Equatable {
    case formula
    case number
    case text
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case cancelButtonTapped
    case commitButtonTapped
    case delegate(Delegate)

    enum Delegate: Equatable {
      case cancelled
      case committed(CellAddress, Cell?)
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        state.error = nil
        return .none

      case .cancelButtonTapped:
        return .send(.delegate(.cancelled))

      case .commitButtonTapped:
        guard !state.text.isEmpty else {
          return .send(.delegate(.committed(state.address, nil)))
        }
        switch state.kind {
        case .formula:
          guard let formula = Self.parse(state.text) else {
            state.error = "Not a formula: \(state.text)"
            return .none
          }
          return .send(.delegate(.committed(state.address, .formula(formula))))
        case .number:
          guard let number = Double(state.text) else {
            state.error = "Not a number: \(state.text)"
            return .none
          }
          return .send(.delegate(.committed(state.address, .number(number))))
        case .text:
          return .send(.delegate(.committed(state.address, .text(state.text))))
        }

      case .delegate:
        return .none
      }
    }
  }

  /// Reads `=B3`, `=B3*1.2` and `=SUM(B1,B2,B4)`.
  static func parse(_ text: String) -> Formula? {
    guard text.hasPrefix("=") else { return nil }
    let body = text.dropFirst()
    func address(_ text: Substring) -> CellAddress? {
      guard let letter = text.first, letter.isLetter, let row = Int(text.dropFirst()) else {
        return nil
      }
      return CellAddress(column: String(letter), row: row)
    }
    if body.hasPrefix("SUM("), body.hasSuffix(")") {
      let cells = body.dropFirst(4).dropLast().split(separator: ",").compactMap(address)
      guard let column = cells.first?.column, cells.allSatisfy({ $0.column == column }) else {
        return nil
      }
      return .sum(column: column, rows: cells.map(\.row))
    }
    let parts = body.split(separator: "*")
    if parts.count == 2, let cell = address(parts[0]), let factor = Double(parts[1]) {
      return .scaled(cell, by: factor)
    }
    return address(body).map(Formula.reference)
  }
}
