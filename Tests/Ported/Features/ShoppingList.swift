import Architecture

/// The ingredients of a recipe as a checklist, pushed on top of the recipe's detail.
struct ShoppingList: Reducer {
  struct State: Equatable, Codable {
    var checked: Set<String> = []
    var items: [String]

    var remaining: Int { items.filter { !checked.contains($0) }.count }
  }

  enum Action: Equatable, Codable {
    case clearCheckedButtonTapped
    case itemToggled(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .clearCheckedButtonTapped:
        state.checked.removeAll()
        return .none

      case let .itemToggled(item):
        if state.checked.contains(item) {
          state.checked.remove(item)
        } else {
          state.checked.insert(item)
        }
        return .none
      }
    }
  }
}
