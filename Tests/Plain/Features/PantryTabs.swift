import Architecture

/// Two tabs over one pantry: the shelf tab changes the stock, the shopping tab derives a list
/// from the same stock and marks items bought. Both see each change, as they share the state.
struct PantryTabs: Reducer {
  enum Tab: Equatable {
    case shelf
    case shopping
  }

  struct State: Equatable {
    var boughtCount = 0
    @BindingState var selectedTab: Tab = .shelf
    var stock: [String: Int] = ["Flour": 2, "Eggs": 0, "Rice": 1]

    var shelf: PantryShelf.State {
      get { PantryShelf.State(stock: stock) }
      set { stock = newValue.stock }
    }

    var shopping: ShoppingTab.State {
      get { ShoppingTab.State(boughtCount: boughtCount, stock: stock) }
      set { (boughtCount, stock) = (newValue.boughtCount, newValue.stock) }
    }
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case shelf(PantryShelf.Action)
    case shopping(ShoppingTab.Action)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Scope(state: \.shelf, action: /Action.shelf) {
      PantryShelf()
    }
    Scope(state: \.shopping, action: /Action.shopping) {
      ShoppingTab()
    }
  }
}

/// The shelf tab: use up or restock an item.
struct PantryShelf: Reducer {
  struct State: Equatable {
    var stock: [String: Int]
  }

  enum Action: Equatable {
    case restockButtonTapped(String)
    case useButtonTapped(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .restockButtonTapped(item):
        state.stock[item, default: 0] += 1
        return .none

      case let .useButtonTapped(item):
        state.stock[item] = max(0, (state.stock[item] ?? 0) - 1)
        return .none
      }
    }
  }
}

/// The shopping tab: what has run out, and buying it.
struct ShoppingTab: Reducer {
  struct State: Equatable {
    var boughtCount: Int
    var stock: [String: Int]

    var list: [String] { stock.filter { $0.value == 0 }.keys.sorted() }
  }

  enum Action: Equatable {
    case boughtButtonTapped(String)
    case buyEverythingButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .boughtButtonTapped(item):
        guard state.stock[item] == 0 else { return .none }
        state.stock[item] = 1
        state.boughtCount += 1
        return .none

      case .buyEverythingButtonTapped:
        for item in state.list {
          state.stock[item] = 1
          state.boughtCount += 1
        }
        return .none
      }
    }
  }
}
